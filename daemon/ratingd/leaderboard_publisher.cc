#include "daemon/ratingd/leaderboard_publisher.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/rank_disagreement.h"
#include "google/protobuf/util/time_util.h"

namespace ratingd {

void LeaderboardPublisher::MarkAllDue(const LivePool& pool) {
  for (const ratings::Model model : ratings::kModels) {
    if (ratings::ModelOn(pool.pool().options(), model)) MarkDue(pool.name(), model);
  }
}

size_t LeaderboardPublisher::Publish(const PartitionRegistry& registry, OutputSink& sink,
                                     bool force, absl::Time committed_at) {
  const absl::flat_hash_set<int32_t> forced = std::move(forced_);
  forced_.clear();
  if (due_.empty()) return 0;
  const absl::Time now = clock_->Now();
  std::vector<Key> done;
  const auto is_forced = [&](const std::string& pool) {
    if (forced.empty()) return false;
    const std::optional<int32_t> partition = registry.PartitionOf(pool);
    return partition.has_value() && forced.contains(*partition);
  };
  for (const Key& key : due_) {
    auto last = last_published_.find(key);
    const bool throttled = last != last_published_.end() && now - last->second < interval_;
    if (throttled && !force && !is_forced(key.first)) continue;
    done.push_back(key);
  }
  // In key order: the output does not depend on the hash set's iteration order.
  std::sort(done.begin(), done.end());
  size_t published = 0;
  for (const Key& key : done) {
    due_.erase(key);
    if (const LivePool* pool = registry.FindPool(key.first)) {
      PublishOne(*pool, registry.PartitionOf(key.first).value_or(0), key.second, sink, now,
                 committed_at);
      ++published;
    }
  }
  return published;
}

void LeaderboardPublisher::Forget(const std::string& pool) {
  for (ratings::Model model : ratings::kModels) {
    due_.erase({pool, model});
    last_published_.erase({pool, model});
  }
}

void LeaderboardPublisher::PublishOne(const LivePool& live, int32_t partition, ratings::Model model,
                                      OutputSink& sink, absl::Time now, absl::Time committed_at) {
  const std::string& name = live.name();
  v1::Leaderboard board = live.Leaderboard(model);
  board.set_partition(partition);
  *board.mutable_computed_at() =
      google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(now));
  *board.mutable_committed_at() =
      google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(committed_at));
  std::string bytes;
  board.SerializeToString(&bytes);
  absl::Status s =
      sink.Leaderboard(partition, absl::StrCat(name, "/", ratings::ModelName(model)), bytes);
  if (s.ok()) {
    metrics_->leaderboards_published().Increment();
  } else {
    Log(std::string(s.message()));  // the commit fails and rolls back
  }
  last_published_[{name, model}] = now;
  if (metrics_->PoolLabel(name) == "_other") return;
  const ratings::Pool& pool = live.pool();
  metrics_->PoolAgents(name).Set(static_cast<double>(pool.index().size()));
  if (model != ratings::Model::kMl && pool.elo() && pool.sco()) {
    metrics_->RankDisagreement(name, "elo_sco")
        .Set(NormalizedKendallTau(live.Ranks(ratings::Model::kElo),
                                  live.Ranks(ratings::Model::kSco)));
  }
  if (model != ratings::Model::kMl && top_agents_ > 0) {
    std::vector<Metrics::TopAgent> top;
    for (const v1::RankedAgent& r : board.ranking()) {
      if (top.size() == top_agents_) break;
      Metrics::TopAgent& t = top.emplace_back();
      t.agent = r.agent();
      t.rating = r.rating();
      if (r.has_ci_low()) t.ci_low = r.ci_low();
      if (r.has_ci_high()) t.ci_high = r.ci_high();
    }
    metrics_->SetTopAgents(name, std::string(ratings::ModelName(model)), top);
  }
}

}  // namespace ratingd
