// A registry of held pools fed results by hand, with the view store and builder the HTTP
// answers read (view_store.h, view_builder.h): the fixture of views_test.cc,
// views_pipeline_test.cc and http_events_test.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/view_builder.h"
#include "daemon/ratingd/view_store.h"
#include "google/protobuf/util/time_util.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"

namespace ratingd::testing {

inline LivePoolConfig Models(bool ml) {
  LivePoolConfig config;
  config.options.ml = ml;
  return config;
}

// ml on, solved every `every` results, refused past `max_agents`.
inline LivePoolConfig MlEvery(uint64_t every, size_t max_agents = 4096) {
  LivePoolConfig config = Models(true);
  config.ml_solve_every = every;
  config.options.ml_options.max_agents = max_agents;
  return config;
}

// A registry holding pools by partition, each fed the results given.
struct Pools {
  LivePool& Hold(int32_t partition, const std::string& name, bool ml = false) {
    return Hold(partition, name, Models(ml));
  }
  LivePool& Hold(int32_t partition, const std::string& name, const LivePoolConfig& config) {
    PartitionState* state = registry.Find(partition);
    if (state == nullptr) {
      PartitionState fresh;
      fresh.partition = partition;
      state = &registry.Insert(std::move(fresh));
    }
    return **registry.GetOrCreatePool(*state, name, config);
  }
  // `winner` beats `loser` in `pool` (game id: a counter); the ml job it made due, if any.
  std::optional<MlJob> Play(LivePool& pool, const std::string& winner, const std::string& loser) {
    std::vector<v1::RankingDelta> deltas;
    std::optional<MlJob> job;
    EXPECT_TRUE(pool.Apply(ratings::testing::Order({winner, loser}), std::to_string(++games),
                           /*event_time=*/nullptr, -1, &deltas, &job)
                    .ok());
    return job;
  }
  // Commits a transaction that applied results to `pool`: its views are published.
  void Commit(const std::string& pool, absl::Time at) {
    builder.MarkApplied(pool);
    builder.Prepare(registry, at);
    builder.Commit();
  }
  PartitionRegistry registry;
  int games = 0;
  ViewStore store;
  ViewBuilder builder{&store};
};

inline DaemonConfig Config() {
  DaemonConfig config;
  config.results_topic = "ratingd.results";
  config.group = "ratingd";
  return config;
}

// The leaderboard query of `pool` and `model`, cut to `limit` agents (0: all).
inline Query LeaderboardQuery(const std::string& pool, ratings::Model model, size_t limit = 0) {
  Query q;
  q.kind = Query::Kind::kLeaderboard;
  q.pool = pool;
  q.model = model;
  q.limit = limit;
  return q;
}

// The elo or sco leaderboard answer as the pool's own report gives it, with the sequence
// and the commit time of the view.
inline std::string ExpectedAnswer(const LivePool& live, ratings::Model model, size_t limit,
                                  absl::Time stamp) {
  v1::RatingReport report = live.Report(model, limit);
  report.set_sequence(static_cast<uint32_t>(live.sequence(model)));
  *report.mutable_committed_at() =
      google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(stamp));
  report.set_owner(true);
  return JsonReply(200, report).body;
}

}  // namespace ratingd::testing
