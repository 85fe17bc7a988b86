// ratingd's record path without Kafka (docs/ARCHITECTURE.md §2): what one result costs the
// consumer thread from its record bytes to its batched deltas (decode, de-duplicate, apply the
// three models, build and batch the deltas, metrics), through the Pipeline on the in-memory
// fakes of tests/fakes/. The shape of the end-to-end benchmark: 10 pools of 100 agents,
// 2-player results, all models on, ml solved every 1,000 results of a pool. Commits every
// 20,000 records (what a backlog gives), included.
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "tests/fakes/pipeline_harness.h"

namespace ratingd::testing {
namespace {

void BM_RecordPath(benchmark::State& state) {
  const auto format = static_cast<DaemonConfig::DeltaFormat>(state.range(0));
  const auto replicas = static_cast<uint32_t>(state.range(1));
  std::string dir = "/tmp/record_path_bench_XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) state.SkipWithError("mkdtemp");
  FakeBroker broker(1);
  FakeClock clock;
  DaemonConfig config = TestConfig(dir, /*ml=*/true);
  config.pool.ml_solve_every = 1000;
  config.delta_format = format;
  config.pool.bootstrap_replicas = replicas;
  // The 65,536 records below are cycled through: each pool sees its ~6,500 game ids again
  // every cycle, so a window that holds them all (the default 100,000) would make every
  // record after the first cycle a duplicate, skipped before the models. 1,000 ids per pool
  // keep every record a new result.
  config.pool.dedup_window = 1000;
  config.commit_interval = absl::Hours(1);  // commits by count, as under a backlog
  Instance instance(&broker, config, &clock);
  instance.consumer.Assign({0});
  std::mt19937_64 gen(1);
  std::vector<std::string> values;
  for (int i = 0; i < (1 << 16); ++i) {
    const std::string pool = absl::StrCat("p", gen() % 10);
    const uint64_t a = gen() % 100, b = (a + 1 + gen() % 99) % 100;
    values.push_back(
        Win(pool, absl::StrCat("game-", i), absl::StrCat("a", a), absl::StrCat("a", b)));
  }
  int64_t offset = 0;
  for (auto _ : state) {
    const std::string& value = values[static_cast<size_t>(offset) % values.size()];
    ConsumedRecord record;
    record.partition = 0;
    record.offset = offset++;
    // The key is the pool: field 1, the message's first bytes (tag, length, name).
    record.key = absl::string_view(value).substr(2, static_cast<size_t>(value[1]));
    record.value = value;
    instance.pipeline.Process(record);
    if (offset % 20000 == 0) instance.pipeline.Tick();
    // The fake broker keeps what commits: drop it, a real broker would have it.
    if (broker.deltas.size() > 100000) broker.deltas.clear();
  }
  state.SetItemsProcessed(state.iterations());
}
// Args: delta format, bootstrap replicas per pool (0: no intervals; 16: the default).
BENCHMARK(BM_RecordPath)
    ->Args({static_cast<int>(DaemonConfig::DeltaFormat::kBatch), 0})
    ->Args({static_cast<int>(DaemonConfig::DeltaFormat::kBatch), 16})
    ->Args({static_cast<int>(DaemonConfig::DeltaFormat::kSingle), 16});

}  // namespace
}  // namespace ratingd::testing

BENCHMARK_MAIN();
