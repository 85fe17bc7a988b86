// Which leaderboards are due, and their throttle (docs/CONTRACTS.md §1): a (pool, model)
// whose ranking changed is published at most once per --leaderboard-interval, to the
// compacted leaderboards topic keyed "pool/model". Consumer thread only.
//
// After any handover, crash or rollback, every pool of a partition reaching its committed
// point is marked due (MarkAllDue), so the last leaderboard of each key always catches up
// with its last delta (docs/ARCHITECTURE.md §4.7).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/output_sink.h"
#include "daemon/ratingd/partition_registry.h"
#include "ratings/model.h"

namespace ratingd {

class LeaderboardPublisher {
 public:
  // `top_agents`: how many of each elo and sco leaderboard's best agents get gauges
  // (Metrics::SetTopAgents; 0 = none).
  LeaderboardPublisher(absl::Duration interval, const Clock* clock, Metrics* metrics,
                       size_t top_agents = 0)
      : interval_(interval), clock_(clock), metrics_(metrics), top_agents_(top_agents) {}

  void MarkDue(const std::string& pool, ratings::Model model) { due_.insert({pool, model}); }
  // Every model the pool has on.
  void MarkAllDue(const LivePool& pool);
  // Publishes through `sink`, just before the transaction commits (its `committed_at`
  // stamp), every due leaderboard whose key was last published at least one interval ago,
  // every due one if `force`, and every due one of the partitions forced (ForcePartitions);
  // returns how many. A due pool this instance no longer holds is dropped.
  size_t Publish(const PartitionRegistry& registry, OutputSink& sink, bool force,
                 absl::Time committed_at);
  // The next Publish publishes every due leaderboard of the pools of `partitions` whatever
  // the interval (they are being handed over).
  void ForcePartitions(const std::vector<int32_t>& partitions) {
    forced_.insert(partitions.begin(), partitions.end());
  }
  // The pool left this instance: its keys are no longer due nor throttled.
  void Forget(const std::string& pool);
  // After a rollback: nothing that was due is (the restore marks the pools again).
  void ClearDue() { due_.clear(); }
  size_t due() const { return due_.size(); }
  bool IsDue(const std::string& pool, ratings::Model model) const {
    return due_.contains({pool, model});
  }

 private:
  using Key = std::pair<std::string, ratings::Model>;
  // `partition`: the pool's, of the results topic (the leaderboard's `partition`).
  void PublishOne(const LivePool& pool, int32_t partition, ratings::Model model, OutputSink& sink,
                  absl::Time now, absl::Time committed_at);

  absl::Duration interval_;
  const Clock* clock_;
  Metrics* metrics_;
  size_t top_agents_;
  absl::flat_hash_set<Key> due_;
  absl::flat_hash_set<int32_t> forced_;  // partitions
  absl::flat_hash_map<Key, absl::Time> last_published_;
};

}  // namespace ratingd
