// Online update throughput of the models (docs/CONTRACTS.md §5 rows 1-3; Glicko-2, MODELS.md
// §10). Results are
// pre-generated with random distinct agents and cycled through, so the timed loop is the
// model update alone (or, for BM_PoolApply, validation + interning + all models).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "ratings/elo.h"
#include "ratings/glicko2.h"
#include "ratings/maximal_lottery.h"
#include "ratings/online_bootstrap.h"
#include "ratings/pool.h"
#include "ratings/pool_history.h"
#include "ratings/sco.h"

namespace ratings {
namespace {

constexpr size_t kStream = 1 << 16;  // results cycled through (a few MB, like a real mix)

struct Stream {
  std::vector<AgentId> agents;  // kStream * k ids
  std::vector<uint32_t> ranks;
  size_t k;
  IndexedResult At(size_t i) const {
    return {absl::MakeConstSpan(agents).subspan(i * k, k),
            absl::MakeConstSpan(ranks).subspan(i * k, k), 1.0};
  }
};

Stream MakeStream(size_t agents, size_t k) {
  std::mt19937_64 gen(42);
  Stream s{{}, {}, k};
  s.agents.reserve(kStream * k);
  std::vector<AgentId> pick;
  for (size_t i = 0; i < kStream; ++i) {
    pick.clear();
    while (pick.size() < k) {
      const auto a = static_cast<AgentId>(gen() % agents);
      if (std::find(pick.begin(), pick.end(), a) == pick.end()) pick.push_back(a);
    }
    for (size_t j = 0; j < k; ++j) {
      s.agents.push_back(pick[j]);
      s.ranks.push_back(static_cast<uint32_t>(j + 1));
    }
  }
  return s;
}

// The stream as Results of named agents ("agent-<id>"), what Pool::Apply takes.
std::vector<Result> NamedResults(const Stream& stream) {
  std::vector<Result> results(kStream);
  for (size_t i = 0; i < kStream; ++i) {
    const IndexedResult r = stream.At(i);
    for (size_t j = 0; j < stream.k; ++j) {
      results[i].standings.push_back(
          {absl::StrCat("agent-", r.agents[j]), r.ranks[j], std::nullopt});
    }
  }
  return results;
}

template <typename Model>
void RunModel(benchmark::State& state, Model& model) {
  const auto agents = static_cast<size_t>(state.range(0));
  const auto k = static_cast<size_t>(state.range(1));
  const Stream stream = MakeStream(agents, k);
  model.Resize(agents);
  size_t i = 0;
  for (auto _ : state) {
    model.Update(stream.At(i));
    i = (i + 1) & (kStream - 1);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_EloUpdate(benchmark::State& state) {
  Elo elo = *Elo::Create({});
  RunModel(state, elo);
  benchmark::DoNotOptimize(elo.Rating(0));
}

void BM_ScoUpdate(benchmark::State& state) {
  Sco sco = *Sco::Create({});
  RunModel(state, sco);
  benchmark::DoNotOptimize(sco.Rating(0));
}

// Glicko-2 (docs/MODELS.md §10): each result a minute of event time after the last, so
// every agent's deviation grows before its period.
void BM_Glicko2Update(benchmark::State& state) {
  Glicko2 glicko2 = *Glicko2::Create({});
  const auto agents = static_cast<size_t>(state.range(0));
  const Stream stream = MakeStream(agents, static_cast<size_t>(state.range(1)));
  glicko2.Resize(agents);
  absl::Time time = absl::FromUnixSeconds(1'700'000'000);
  size_t i = 0;
  for (auto _ : state) {
    time += absl::Minutes(1);
    glicko2.Update(stream.At(i), time);
    i = (i + 1) & (kStream - 1);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  benchmark::DoNotOptimize(glicko2.Rating(0));
}

// ML keeps dense margins, so it is refused above max_agents (4096 by default): measured
// at 1,000 and 4,096 agents instead of 52,958.
void BM_MlMarginsUpdate(benchmark::State& state) {
  MaximalLottery ml = *MaximalLottery::Create({});
  RunModel(state, ml);
  benchmark::DoNotOptimize(ml.tally().N(0, 1));
}

// docs/CONTRACTS.md §5 row 3: Elo + SCO + ML margins on one result, as a pool applies them.
void BM_AllModelsUpdate(benchmark::State& state) {
  const auto agents = static_cast<size_t>(state.range(0));
  const auto k = static_cast<size_t>(state.range(1));
  const Stream stream = MakeStream(agents, k);
  Elo elo = *Elo::Create({});
  Sco sco = *Sco::Create({});
  MaximalLottery ml = *MaximalLottery::Create({});
  elo.Resize(agents);
  sco.Resize(agents);
  ml.Resize(agents);
  size_t i = 0;
  for (auto _ : state) {
    const IndexedResult r = stream.At(i);
    elo.Update(r);
    sco.Update(r);
    ml.Update(r);
    i = (i + 1) & (kStream - 1);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  benchmark::DoNotOptimize(elo.Rating(0) + sco.Rating(0) + ml.tally().N(0, 1));
}

// The whole Pool::Apply path: validation, string interning, all three models.
void BM_PoolApply(benchmark::State& state) {
  const auto agents = static_cast<size_t>(state.range(0));
  const auto k = static_cast<size_t>(state.range(1));
  const Stream stream = MakeStream(agents, k);
  const std::vector<Result> results = NamedResults(stream);
  Pool pool = *Pool::Create({});
  for (const Result& r : results) (void)pool.Apply(r);  // intern everyone first
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pool.Apply(results[i]));
    i = (i + 1) & (kStream - 1);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// A pool's results with the rating histories of elo and sco (docs/MODELS.md §11) as ratingd
// keeps them: each result applied to the pool and its 16 bootstrap replicas, then (history:1)
// a point of each agent in each model, and every 20,000 results a "commit" that shares every
// agent's points with a view held until the next one, as ratingd's views do. Histories of 128
// points, full before the timed loop. history:0 is the same without the histories, so the
// difference is their cost per result, cache misses and thinning included (the agents'
// buffers are touched in the stream's random order, not one result over and over).
void BM_PoolHistoryRecord(benchmark::State& state) {
  const auto agents = static_cast<size_t>(state.range(0));
  const auto k = static_cast<size_t>(state.range(1));
  const bool history = state.range(2) != 0;
  const Stream stream = MakeStream(agents, k);
  const std::vector<Result> results = NamedResults(stream);
  PoolOptions options;
  options.ml = false;
  Pool pool = *Pool::Create(options);
  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = 16, .seed = 1}, EloOptions{}, ScoOptions{});
  PoolHistory elo = *PoolHistory::Create(Model::kElo, 128);
  PoolHistory sco = *PoolHistory::Create(Model::kSco, 128);
  std::vector<HistoryRun> view;
  size_t i = 0;
  size_t since_commit = 0;
  const auto step = [&] {
    (void)pool.Apply(results[i]);
    boot.Update(pool);
    if (history) {
      elo.Record(pool, &boot, std::nullopt);
      sco.Record(pool, &boot, std::nullopt);
      if (++since_commit == 20'000) {
        since_commit = 0;
        view.clear();
        for (AgentId a = 0; a < elo.size(); ++a) view.push_back(elo.Share(a));
        for (AgentId a = 0; a < sco.size(); ++a) view.push_back(sco.Share(a));
      }
    }
    i = (i + 1) & (kStream - 1);
  };
  for (size_t warm = 0; warm < 4 * kStream; ++warm) step();  // every agent's history full
  for (auto _ : state) step();
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// The online bootstrap replicas of Elo and SCO (docs/MODELS.md §5.6) on one result: the
// Poisson draws and both models' replicas.
void BM_BootstrapUpdate(benchmark::State& state) {
  const auto agents = static_cast<size_t>(state.range(0));
  const auto k = static_cast<size_t>(state.range(1));
  const auto replicas = static_cast<uint32_t>(state.range(2));
  const Stream stream = MakeStream(agents, k);
  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = replicas, .seed = 1}, EloOptions{}, ScoOptions{});
  boot.Resize(agents);
  size_t i = 0;
  uint64_t index = 0;
  for (auto _ : state) {
    boot.Update(stream.At(i), index++);
    i = (i + 1) & (kStream - 1);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  benchmark::DoNotOptimize(boot.EloReplicas(0)[0]);
}

// Pool::Apply as ratingd's pool calls it, with `replicas` bootstrap replicas after it (0:
// none): the cost of intervals against today's per-result path.
void BM_PoolApplyWithReplicas(benchmark::State& state) {
  const auto agents = static_cast<size_t>(state.range(0));
  const auto k = static_cast<size_t>(state.range(1));
  const auto replicas = static_cast<uint32_t>(state.range(2));
  const Stream stream = MakeStream(agents, k);
  const std::vector<Result> results = NamedResults(stream);
  Pool pool = *Pool::Create({});
  for (const Result& r : results) (void)pool.Apply(r);  // intern everyone first
  std::optional<OnlineBootstrap> boot;
  if (replicas > 0) {
    boot = *OnlineBootstrap::Create({.replicas = replicas, .seed = 1}, EloOptions{}, ScoOptions{});
    boot->Resize(pool.index().size());
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pool.Apply(results[i]));
    if (boot) boot->Update(pool);
    i = (i + 1) & (kStream - 1);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (int64_t agents : {1000, 52958}) {
    for (int64_t k : {2, 7}) b->Args({agents, k});
  }
}
void MlSizes(benchmark::internal::Benchmark* b) {
  for (int64_t agents : {1000, 4096}) {
    for (int64_t k : {2, 7}) b->Args({agents, k});
  }
}

BENCHMARK(BM_EloUpdate)->ArgNames({"agents", "k"})->Apply(Sizes);
BENCHMARK(BM_ScoUpdate)->ArgNames({"agents", "k"})->Apply(Sizes);
BENCHMARK(BM_Glicko2Update)->ArgNames({"agents", "k"})->Apply(Sizes);
BENCHMARK(BM_MlMarginsUpdate)->ArgNames({"agents", "k"})->Apply(MlSizes);
BENCHMARK(BM_AllModelsUpdate)->ArgNames({"agents", "k"})->Apply(MlSizes);
BENCHMARK(BM_PoolApply)->ArgNames({"agents", "k"})->Apply(MlSizes);
BENCHMARK(BM_PoolHistoryRecord)
    ->ArgNames({"agents", "k", "history"})
    ->Args({2000, 2, 0})
    ->Args({2000, 2, 1})
    ->Args({1000, 8, 0})
    ->Args({1000, 8, 1});
BENCHMARK(BM_BootstrapUpdate)
    ->ArgNames({"agents", "k", "replicas"})
    ->Args({1000, 2, 16})
    ->Args({1000, 3, 16})
    ->Args({1000, 4, 16})
    ->Args({1000, 7, 16})
    ->Args({52958, 2, 16})
    ->Args({52958, 7, 16})
    ->Args({1000, 2, 8})
    ->Args({1000, 2, 32});
BENCHMARK(BM_PoolApplyWithReplicas)
    ->ArgNames({"agents", "k", "replicas"})
    ->Args({1000, 2, 0})
    ->Args({1000, 2, 16})
    ->Args({1000, 7, 0})
    ->Args({1000, 7, 16})
    ->Args({4096, 2, 0})
    ->Args({4096, 2, 16});

}  // namespace
}  // namespace ratings

BENCHMARK_MAIN();
