// Builds the views the HTTP threads answer from (view_store.h, docs/ARCHITECTURE.md §3):
// which pools the open transaction changed, their views built just before it commits,
// published once it has. Consumer thread only.
//
// A view never goes back. A partition that replays records committed before (after a
// restore, or after an aborted transaction rolled it back to its last snapshot) passes
// through states older than the one its views show; its views stay as they are until the
// replay reaches the committed offset, and only a partition without views gets those of
// its restored state.
//
//   MarkApplied, MarkSolved ... Prepare(registry, stamp) ─▶ commit ─▶ Commit()  (published)
//                                                       └▶ abort ─▶ Abort()   (unchanged)
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/view_store.h"
#include "ratings/model.h"

namespace ratingd {

class ViewBuilder {
 public:
  explicit ViewBuilder(ViewStore* store) : store_(store) {}

  // A result was applied to `pool` in the open transaction (its counts, elo and sco moved).
  void MarkApplied(const std::string& pool) { applied_.insert(pool); }
  // An ml solution of `pool` was accepted in the open transaction.
  void MarkSolved(const std::string& pool) { solved_.insert(pool); }
  // The pending views: the published ones with each marked pool rebuilt from the registry
  // (its elo and sco leaderboards if a result was applied, its ml one if a solution was
  // accepted), every new pool's view built, and the pools no longer held left out; each
  // rebuilt leaderboard stamped `committed_at`. The views of a replaying partition stay as
  // published. Clears the marks.
  void Prepare(const PartitionRegistry& registry, absl::Time committed_at);
  // The transaction committed: publishes the pending views.
  void Commit();
  // The transaction aborted: forgets the pending views and the marks (the pools restore to
  // the state the published views show).
  void Abort();
  // `partition` was just restored (its last snapshot, maybe with a replay ahead): if it has
  // no published view, publishes at once those of its restored state, stamped `now`. If it
  // has (a rollback after an abort), they show its last commit, which the restore comes back
  // to, and stay.
  void PublishRestored(const PartitionRegistry& registry, int32_t partition, absl::Time now);
  // `partition` is at its committed offset (its replay just reached it): publishes at once
  // new views of its pools, stamped `now`; the other views stay as they are.
  void PublishPartition(const PartitionRegistry& registry, int32_t partition, absl::Time now);
  // Publishes at once the views without those of partitions the registry no longer holds.
  void PublishHeld(const PartitionRegistry& registry);

 private:
  bool Changed(const std::string& pool) const {
    return applied_.contains(pool) || solved_.contains(pool);
  }
  // Whether `model`'s leaderboard of `pool` moved in the open transaction.
  bool Moved(const std::string& pool, ratings::Model model) const {
    return model == ratings::Model::kMl ? solved_.contains(pool) : applied_.contains(pool);
  }
  // A new view of `live`; `previous` (null if none) lends its leaderboards of the models
  // that did not change.
  std::shared_ptr<const PoolView> Build(const LivePool& live, int32_t partition,
                                        absl::Time committed_at, const PoolView* previous) const;

  // The view of `history`: each agent's points, shared with the live history.
  static std::shared_ptr<const std::vector<PoolView::AgentPoints>> HistoryView(
      const ratings::PoolHistory& history);

  ViewStore* store_;
  absl::flat_hash_set<std::string> applied_;
  absl::flat_hash_set<std::string> solved_;
  std::shared_ptr<Views> pending_;
};

}  // namespace ratingd
