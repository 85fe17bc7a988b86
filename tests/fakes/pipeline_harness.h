// One ratingd instance on a FakeBroker, for the record path's unit tests: a Pipeline with a
// fake sink, consumer, snapshot source and clock, and builders of results-topic records.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/pipeline.h"
#include "gtest/gtest.h"
#include "ratingd/v1/game_result.pb.h"
#include "tests/fakes/fake_broker.h"
#include "tests/fakes/fake_clock.h"

namespace ratingd::testing {

// A configuration for unit tests: a temporary snapshot folder per test, elo and sco on,
// ml off unless asked for.
inline DaemonConfig TestConfig(const std::string& snapshot_dir, bool ml = false) {
  DaemonConfig c;
  c.snapshot_dir = snapshot_dir;
  c.pool.options.elo = true;
  c.pool.options.sco = true;
  c.pool.options.ml = ml;
  c.pool.ml_solve_every = 10;
  c.commit_interval = absl::Milliseconds(100);
  c.leaderboard_interval = absl::Seconds(1);
  c.snapshot_interval = absl::Seconds(30);
  return c;
}

// A new empty folder under the test's temporary directory: give each Instance its own, as
// if it ran on its own host (its local snapshot files are its own).
inline std::string TempSnapshotDir() {
  std::string dir = ::testing::TempDir() + "ratingd_XXXXXX";
  return mkdtemp(dir.data());
}

struct Instance {
  Instance(FakeBroker* broker, const DaemonConfig& c, FakeClock* clock)
      : config(c),
        metrics(100),
        sink(broker),
        consumer(broker),
        snapshots(broker, c.group, c.results_topic),
        pipeline(config, &sink, &consumer, &snapshots, &metrics, clock) {
    consumer.set_pipeline(&pipeline);
    pipeline.Start();
  }
  DaemonConfig config;
  Metrics metrics;
  FakeOutputSink sink;
  FakeConsumer consumer;
  FakeSnapshotSource snapshots;
  Pipeline pipeline;
};

// Delivers every record available to `instance`, then moves the clock by its commit interval
// and ticks once more: what it read commits (unless its sink was told to fail).
inline void ProcessAndCommit(Instance& instance, FakeClock& clock) {
  instance.consumer.PollAll();
  clock.Advance(instance.config.commit_interval);
  instance.consumer.Poll();
}

// A serialised two-player GameResult: `winner` beats `loser` in `pool`.
inline std::string Win(const std::string& pool, const std::string& game_id,
                       const std::string& winner, const std::string& loser) {
  v1::GameResult m;
  m.set_pool(pool);
  m.set_game_id(game_id);
  v1::Standing* w = m.add_standings();
  w->set_agent(winner);
  w->set_rank(1);
  v1::Standing* l = m.add_standings();
  l->set_agent(loser);
  l->set_rank(2);
  return m.SerializeAsString();
}

// Appends `n` results of `pool` to `partition`: game "<pool>-<i>" for i in [first, first + n),
// where agent a(i mod 5) beats a(i+1 mod 5), each record stamped timestamp_ms (-1: none).
inline void AppendGames(FakeBroker& broker, int32_t partition, const std::string& pool, int first,
                        int n, int64_t timestamp_ms = -1) {
  for (int i = first; i < first + n; ++i) {
    broker.Append(partition, pool,
                  Win(pool, absl::StrCat(pool, "-", i), absl::StrCat("a", i % 5),
                      absl::StrCat("a", (i + 1) % 5)),
                  timestamp_ms);
  }
}

}  // namespace ratingd::testing
