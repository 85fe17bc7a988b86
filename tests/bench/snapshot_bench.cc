// Snapshot and restore of one partition holding a pool of 1,000,000 agents
// (docs/CONTRACTS.md §5 rows 11-12: <= 1 s each, <= 64 bytes per agent for the Elo + SCO
// state). The pool is made by restoring a synthesised snapshot (the sorted rankings are
// rebuilt in O(n log n)), with Elo and SCO on and a full de-duplication window of 100,000 game ids.
// The replicas spread around the point ratings as a live pool's do: normal, with standard
// deviations of 40 Elo and 0.14 SCO, the medians over the agents of `ratingctl rate
// --bootstrap-replicas 16` on a 5,000-agent, 100,000-game tournament (`generate --model
// tournament`, seed 3; 18-74 Elo and 0.06-0.26 SCO from the lowest to the highest). Their
// size on disk depends on that spread (docs/MODELS.md §5.6).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "absl/strings/str_format.h"
#include "benchmark/benchmark.h"
#include "daemon/ratingd/dedup_segments.h"
#include "daemon/ratingd/partition_state.h"
#include "daemon/ratingd/snapshot_file.h"
#include "daemon/ratingd/wire_format.h"

namespace ratingd {
namespace {

// The benchmarks' arg: bootstrap replicas per pool (docs/MODELS.md §5.6). 0 is the state the
// targets of rows 11-12 are about; 16 (ratingd's default) adds 2 x 16 replica ratings and a
// result count per agent. BM_SnapshotWrite and BM_SnapshotRestore run at ratingd's history
// defaults (128 points, `--history-max-agents` 10,000), under which a pool of a million
// agents keeps no history (docs/MODELS.md §11.1); the ...Histories cases lift that bound
// (`--history-max-agents 0`) and keep kHistoryPoints per agent in each of elo and sco, as a
// pool of 5,000,000 two-agent results over 1,000,000 agents has (§11).
constexpr int kHistoryPoints = 10;

LivePoolConfig Config(const benchmark::State& state, int history_points) {
  LivePoolConfig config;
  config.options.ml = false;
  config.dedup_window = 100'000;
  config.bootstrap_replicas = static_cast<uint32_t>(state.range(0));
  config.history_points = 128;
  config.history_max_agents = history_points > 0 ? 0 : 10'000;
  return config;
}

// `points` history points per agent of one model: the agent's results spread over the pool's
// 5,000,000, an event time a minute per 10 results, ratings near `centre` with an interval of
// ± `half`.
v1::HistorySnapshot SynthesisedHistory(std::string_view model, int agents, int points,
                                       double centre, double half, std::mt19937_64& rng) {
  v1::HistorySnapshot h;
  h.set_model(std::string(model));
  std::uniform_int_distribution<uint64_t> offset(0, 5'000'000 / points - 1);
  std::normal_distribution<double> walk(0, half / 4);
  for (int i = 0; i < agents; ++i) {
    h.add_counts(static_cast<uint32_t>(points));
    double rating = centre + walk(rng);
    for (int j = 0; j < points; ++j) {
      const uint64_t sequence = static_cast<uint64_t>(j) * (5'000'000 / points) + offset(rng);
      h.add_sequence(sequence);
      h.add_seconds(1'700'000'000 + static_cast<int64_t>(sequence / 10) * 60);
      h.add_nanos(0);
      rating += walk(rng);
      h.add_rating(rating);
      h.add_ci_low(rating - half);
      h.add_ci_high(rating + half);
    }
  }
  return h;
}

v1::Snapshot Synthesised(int agents, uint32_t replicas, int history_points) {
  v1::Snapshot s;
  s.set_format(kSnapshotFormat);
  v1::PartitionOffset* o = s.add_offsets();
  o->set_topic("ratingd.results");
  o->set_partition(0);
  o->set_next_offset(123456789);
  s.set_params_fingerprint(ParamsFingerprint(LivePoolConfig{
      .options = {.ml = false}, .dedup_window = 100'000}));  // replicas are not in it
  v1::PoolSnapshot& p = *s.add_pools();
  p.set_pool("big");
  std::mt19937_64 rng(1);
  std::normal_distribution<double> elo(1500, 200);
  std::uniform_real_distribution<double> sco(0, 100);
  for (int i = 0; i < agents; ++i) {
    p.add_agents(absl::StrFormat("agent-%07d", i));
    p.add_elo(elo(rng));
    p.add_sco(sco(rng));
  }
  // Format 4's replicas: whole grid steps (K/1024 Elo, (alpha/tau)/1024 SCO) from the point.
  p.set_bootstrap_replicas(replicas);
  std::normal_distribution<double> elo_spread(0, 40 * 1024 / 32.0);
  std::normal_distribution<double> sco_spread(0, 0.14 * 1024 / 0.1);
  const double sco_step = 0.1 / 1024;
  for (int i = 0; i < agents; ++i) {
    const double centre = std::nearbyint(p.sco(i) / sco_step);
    for (uint32_t r = 0; r < replicas; ++r) {
      wire::AppendVarint(wire::ZigZag(std::llround(elo_spread(rng))),
                         *p.mutable_elo_replica_steps());
      wire::AppendVarint(
          wire::ZigZag(std::llround(
              std::clamp(centre + sco_spread(rng), 0.0, std::floor(100 / sco_step)) - centre)),
          *p.mutable_sco_replica_steps());
    }
  }
  p.set_results(5'000'000);
  for (int i = 0; i < 100'000; ++i) p.add_recent_game_ids(absl::StrFormat("game-%09d", i));
  p.set_elo_sequence(5'000'000);
  p.set_sco_sequence(5'000'000);
  if (history_points > 0) {
    *p.add_histories() = SynthesisedHistory("elo", agents, history_points, 1500, 80, rng);
    *p.add_histories() = SynthesisedHistory("sco", agents, history_points, 50, 0.3, rng);
  }
  return s;
}

// A partition holding the synthesised pool, with its replicas when the configuration keeps
// them.
PartitionState Partition(const benchmark::State& state, int history_points) {
  const LivePoolConfig config = Config(state, history_points);
  return *PartitionState::FromSnapshot(
      Synthesised(1'000'000, config.bootstrap_replicas, history_points), config,
      ParamsFingerprint(config));
}

const std::string& Path() {
  static const std::string* const path =
      new std::string(absl::StrFormat("/tmp/ratingd-snapshot-bench-%d.snapshot", getpid()));
  return *path;
}

void SnapshotWrite(benchmark::State& state, int history_points) {
  const std::string fp = ParamsFingerprint(Config(state, history_points));
  PartitionState partition = Partition(state, history_points);
  size_t bytes = 0;
  for (auto _ : state) {
    // ratingd's path: the consumer thread serialises (Committer, SerializeSnapshot), the
    // writer thread appends the sealed de-duplication segments and writes with fsync.
    const std::string snapshot = partition.SerializeSnapshot(fp, "bench", 0);
    std::string segment_fields;
    AppendDedupSegments(SealedSegments(partition), segment_fields);
    bytes = *WriteSnapshotPieces(Path(), {snapshot, segment_fields});
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["bytes_per_agent"] = static_cast<double>(bytes) / 1e6;
}
void BM_SnapshotWrite(benchmark::State& state) { SnapshotWrite(state, 0); }
void BM_SnapshotWriteHistories(benchmark::State& state) { SnapshotWrite(state, kHistoryPoints); }
BENCHMARK(BM_SnapshotWrite)
    ->Arg(0)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_SnapshotWriteHistories)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

void SnapshotRestore(benchmark::State& state, int history_points) {
  const LivePoolConfig config = Config(state, history_points);
  const std::string fp = ParamsFingerprint(config);
  WriteSnapshotFile(Path(), Partition(state, history_points).ToSnapshot(fp)).IgnoreError();
  for (auto _ : state) {
    std::optional<PartitionState> partition;
    {
      // Read + parse + rebuild pools and rankings, the snapshot moved in as ratingd's
      // restorer does, and freed.
      absl::StatusOr<std::optional<v1::Snapshot>> read = ReadSnapshotFile(Path());
      partition.emplace(*PartitionState::FromSnapshot(**std::move(read), config, fp));
    }
    state.PauseTiming();
    partition.reset();  // freeing the restored state is not part of a restore
    state.ResumeTiming();
  }
  std::remove(Path().c_str());
}
void BM_SnapshotRestore(benchmark::State& state) { SnapshotRestore(state, 0); }
void BM_SnapshotRestoreHistories(benchmark::State& state) {
  SnapshotRestore(state, kHistoryPoints);
}
BENCHMARK(BM_SnapshotRestore)
    ->Arg(0)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_SnapshotRestoreHistories)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace
}  // namespace ratingd

BENCHMARK_MAIN();
