// Batch solvers at Diplomacy scale (docs/CONTRACTS.md §5 rows 4-5; [SCO] §4.4): 52,958 agents and
// 31,049 strict 7-player results with agents drawn uniformly (a generated stand-in of the
// webDiplomacy data's shape: 7 distinct players per game, ~4 games per player, 0.001% of
// the margin matrix non-zero).
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "benchmark/benchmark.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/batch/sco_batch.h"
#include "ratings/batch/vote_set.h"

namespace ratings {
namespace {

constexpr size_t kAgents = 52'958;
constexpr size_t kGames = 31'049;
constexpr size_t kPlayers = 7;

const VoteSet& Diplomacy() {
  static const VoteSet* const votes = [] {
    auto* v = new VoteSet;
    std::mt19937_64 gen(2024);
    std::vector<AgentId> game;
    const std::vector<uint32_t> ranks = {1, 2, 3, 4, 5, 6, 7};
    for (size_t g = 0; g < kGames; ++g) {
      game.clear();
      while (game.size() < kPlayers) {
        const auto a = static_cast<AgentId>(gen() % kAgents);
        if (std::find(game.begin(), game.end(), a) == game.end()) game.push_back(a);
      }
      v->Add({game, ranks, 1.0});
    }
    v->SetNumAgents(kAgents);
    return v;
  }();
  return *votes;
}

// The distinct pairs (as the shared batch tally will produce them; written here so the
// benchmark depends on the pure library only).
std::vector<PairCount> Pairs(const VoteSet& votes) {
  absl::flat_hash_map<uint64_t, size_t> slot;
  std::vector<PairCount> pairs;
  for (size_t r = 0; r < votes.size(); ++r) {
    const IndexedResult v = votes[r];
    for (size_t i = 0; i < v.size(); ++i) {
      for (size_t j = i + 1; j < v.size(); ++j) {
        const AgentId a = std::min(v.agents[i], v.agents[j]);
        const AgentId b = std::max(v.agents[i], v.agents[j]);
        auto [it, added] = slot.try_emplace((uint64_t{a} << 32) | b, pairs.size());
        if (added) pairs.push_back({.a = a, .b = b});
        const bool i_above = v.ranks[i] < v.ranks[j];
        ((i_above == (v.agents[i] == a)) ? pairs[it->second].n_ab : pairs[it->second].n_ba) += 1.0;
      }
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const PairCount& p, const PairCount& q) {
    return p.a < q.a || (p.a == q.a && p.b < q.b);
  });
  return pairs;
}

// docs/CONTRACTS.md §5 row 4: Algorithm 1, batch 32, 190,000 steps ([SCO] §4.4), alpha 0.1
// and tau 1/2 ([SCO] App. D.2 for m >= 501).
void BM_ScoBatchDiplomacy(benchmark::State& state) {
  const VoteSet& votes = Diplomacy();
  const ScoBatchOptions options = {
      .batch = 32, .iterations = 190'000, .alpha = 0.1, .tau = 0.5, .seed = 1};
  for (auto _ : state) {
    auto theta = SolveScoBatch(votes, options);
    benchmark::DoNotOptimize(theta);
  }
  state.counters["votes_sampled"] = 32.0 * 190'000;
}
BENCHMARK(BM_ScoBatchDiplomacy)->Unit(benchmark::kMillisecond)->Iterations(1);

// The Fenchel–Young variant at the same scale and step count, for comparison.
void BM_ScoFenchelYoungDiplomacy(benchmark::State& state) {
  const VoteSet& votes = Diplomacy();
  const ScoFenchelYoungOptions options = {.batch = 32, .iterations = 190'000, .seed = 1};
  for (auto _ : state) {
    auto theta = SolveScoFenchelYoung(votes, options);
    benchmark::DoNotOptimize(theta);
  }
}
BENCHMARK(BM_ScoFenchelYoungDiplomacy)->Unit(benchmark::kMillisecond)->Iterations(1);

// docs/CONTRACTS.md §5 row 5: Hunter's MM to convergence (default prior and tolerance), from the
// distinct pairs: memory O(agents + pairs).
void BM_BradleyTerryDiplomacy(benchmark::State& state) {
  const std::vector<PairCount> pairs = Pairs(Diplomacy());
  int64_t iterations = 0;
  bool converged = false;
  for (auto _ : state) {
    auto fit = FitBradleyTerry(kAgents, pairs, {});
    iterations = fit->iterations;
    converged = fit->converged;
    benchmark::DoNotOptimize(fit);
  }
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["mm_iterations"] = static_cast<double>(iterations);
  state.counters["converged"] = converged ? 1 : 0;
}
BENCHMARK(BM_BradleyTerryDiplomacy)->Unit(benchmark::kMillisecond)->Iterations(1);

// The interim pair tally (hash map of distinct pairs) that feeds BT, for the end-to-end.
void BM_PairTallyDiplomacy(benchmark::State& state) {
  const VoteSet& votes = Diplomacy();
  for (auto _ : state) {
    auto pairs = Pairs(votes);
    benchmark::DoNotOptimize(pairs);
  }
}
BENCHMARK(BM_PairTallyDiplomacy)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace ratings

BENCHMARK_MAIN();
