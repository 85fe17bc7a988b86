// Batch voting methods and exact / regret-matching maximal lotteries (docs/CONTRACTS.md §5
// rows 6-8). Inputs are generated once, outside the timed loop, with fixed seeds:
//  - profiles of complete rankings drawn from Plackett–Luce with skills spread evenly
//    over [0, 3] (a realistic profile: a clear top, noisy middle), or uniformly at random
//    (near-zero margins everywhere: the hardest case for the lottery solvers);
//  - dense random margins: every off-diagonal M(a, b) uniform in {-999, ..., 999},
//    odd (so the maximal lottery is unique, as for an odd number of votes).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "ratings/batch/vote_set.h"
#include "ratings/maximal_lottery.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/copeland.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/schulze.h"
#include "ratings/voting/scoring_rules.h"
#include "ratings/voting/stv.h"

namespace ratings::voting {
namespace {

struct Rankings {
  size_t agents = 0;
  std::vector<std::vector<AgentId>> orders;  // best first
};

Rankings MakeRankings(size_t agents, size_t votes, bool plackett_luce) {
  std::mt19937_64 gen(7);
  std::exponential_distribution<double> exponential(1.0);
  Rankings r{agents, {}};
  std::vector<double> key(agents);
  for (size_t v = 0; v < votes; ++v) {
    // Plackett–Luce by exponential races: agent a finishes at Exp(1) / exp(skill_a).
    for (size_t a = 0; a < agents; ++a) {
      const double skill = plackett_luce ? 3.0 * static_cast<double>(a) / agents : 0.0;
      key[a] = exponential(gen) / std::exp(skill);
    }
    std::vector<AgentId> order(agents);
    std::iota(order.begin(), order.end(), AgentId{0});
    std::sort(order.begin(), order.end(), [&](AgentId a, AgentId b) { return key[a] < key[b]; });
    r.orders.push_back(std::move(order));
  }
  return r;
}

VoteSet ToProfile(const Rankings& r) {
  VoteSet profile(r.agents);
  std::vector<uint32_t> ranks(r.agents);
  std::iota(ranks.begin(), ranks.end(), 1u);
  for (const auto& order : r.orders) profile.Add({order, ranks, 1.0});
  return profile;
}

// Everything `ratingctl rate` does for the ten methods after reading the file. Exact
// Kemeny is refused when a majority cycle holds more than 20 agents (uniform random
// rankings of 100 agents: one cycle of ~all of them); counter kemeny_refused says so.
void BM_AllRules(benchmark::State& state) {
  const Rankings rankings = MakeRankings(static_cast<size_t>(state.range(0)),
                                         static_cast<size_t>(state.range(1)), state.range(2) != 0);
  const std::vector<uint32_t> priority = IdentityPriority(rankings.agents);
  bool kemeny_refused = false;
  for (auto _ : state) {
    const VoteSet profile = ToProfile(rankings);
    const BatchTally tally = BatchTally::FromVotes(profile);
    const Eigen::MatrixXd n = *tally.PreferenceMatrix();
    const Eigen::MatrixXd m = *tally.MarginMatrix();
    benchmark::DoNotOptimize(ApprovalScores(profile, 3));
    benchmark::DoNotOptimize(PluralityScores(profile));
    benchmark::DoNotOptimize(BordaScores(profile));
    benchmark::DoNotOptimize(*Stv(profile, {}, priority));
    benchmark::DoNotOptimize(CopelandScores(tally));
    benchmark::DoNotOptimize(Schulze(n, priority));
    benchmark::DoNotOptimize(RankedPairs(m, priority));
    benchmark::DoNotOptimize(*SolveMaximalLottery(m));
    benchmark::DoNotOptimize(*IterativeMaximalLotteries(m));
    const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {}, priority);
    kemeny_refused = !kemeny.ok();
    benchmark::DoNotOptimize(kemeny);
  }
  state.counters["kemeny_refused"] = kemeny_refused ? 1 : 0;
}
BENCHMARK(BM_AllRules)
    ->ArgNames({"agents", "votes", "pl"})
    ->Args({100, 1000, 1})
    ->Args({100, 1000, 0})
    ->Unit(benchmark::kMillisecond);

// Where the time of BM_AllRules goes: one step at a time on the same input.
enum Step { kBuild, kScoring, kStv, kCopeland, kSchulze, kRankedPairs, kMl, kIml };

void BM_Step(benchmark::State& state) {
  const Rankings rankings = MakeRankings(100, 1000, state.range(1) != 0);
  const std::vector<uint32_t> priority = IdentityPriority(rankings.agents);
  const VoteSet profile = ToProfile(rankings);
  const BatchTally tally = BatchTally::FromVotes(profile);
  const Eigen::MatrixXd n = *tally.PreferenceMatrix();
  const Eigen::MatrixXd m = *tally.MarginMatrix();
  for (auto _ : state) {
    switch (static_cast<Step>(state.range(0))) {
      case kBuild: {
        const VoteSet p = ToProfile(rankings);
        benchmark::DoNotOptimize(*BatchTally::FromVotes(p).MarginMatrix());
        break;
      }
      case kScoring:
        benchmark::DoNotOptimize(ApprovalScores(profile, 3));
        benchmark::DoNotOptimize(PluralityScores(profile));
        benchmark::DoNotOptimize(BordaScores(profile));
        break;
      case kStv:
        benchmark::DoNotOptimize(*Stv(profile, {}, priority));
        break;
      case kCopeland:
        benchmark::DoNotOptimize(CopelandScores(tally));
        break;
      case kSchulze:
        benchmark::DoNotOptimize(Schulze(n, priority));
        break;
      case kRankedPairs:
        benchmark::DoNotOptimize(RankedPairs(m, priority));
        break;
      case kMl:
        benchmark::DoNotOptimize(*SolveMaximalLottery(m));
        break;
      case kIml:
        benchmark::DoNotOptimize(*IterativeMaximalLotteries(m));
        break;
    }
  }
}
BENCHMARK(BM_Step)
    ->ArgNames({"step", "pl"})
    ->ArgsProduct({{kBuild, kScoring, kStv, kCopeland, kSchulze, kRankedPairs, kMl, kIml}, {1, 0}})
    ->Unit(benchmark::kMillisecond);

// Exact Kemeny. Uniform random rankings: one majority cycle holding every agent, the
// dynamic program's worst case, up to the default limit of 20. Plackett–Luce rankings of
// 100 agents: split at strict majorities into cycles small enough to solve, or refused
// (reported as an error) if one is above the limit.
void BM_Kemeny(benchmark::State& state) {
  const Rankings rankings =
      MakeRankings(static_cast<size_t>(state.range(0)), 1000, state.range(1) != 0);
  const Eigen::MatrixXd n = *BatchTally::FromVotes(ToProfile(rankings)).PreferenceMatrix();
  const std::vector<uint32_t> priority = IdentityPriority(rankings.agents);
  if (const auto probe = Kemeny(n, {}, priority); !probe.ok()) {
    state.SkipWithError(std::string(probe.status().message()).c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(*Kemeny(n, {}, priority));
}
BENCHMARK(BM_Kemeny)
    ->ArgNames({"agents", "pl"})
    ->Args({10, 0})
    ->Args({15, 0})
    ->Args({20, 0})
    ->Args({100, 1})
    ->Unit(benchmark::kMillisecond);

Eigen::MatrixXd DenseRandomMargins(Eigen::Index n) {
  std::mt19937_64 gen(400);
  std::uniform_int_distribution<int> half(-500, 499);
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = i + 1; j < n; ++j) {
      m(i, j) = 2 * half(gen) + 1;
      m(j, i) = -m(i, j);
    }
  }
  return m;
}

// docs/CONTRACTS.md §5 row 7: the exact maximal lottery of dense random margins.
void BM_ExactMaximalLottery(benchmark::State& state) {
  const Eigen::MatrixXd m = DenseRandomMargins(state.range(0));
  double exploitability = 0.0;
  for (auto _ : state) {
    const ExactLottery ml = *SolveMaximalLottery(m);
    exploitability = ml.exploitability;
    benchmark::DoNotOptimize(ml);
  }
  state.counters["exploitability"] = exploitability;
}
BENCHMARK(BM_ExactMaximalLottery)
    ->ArgName("agents")
    ->Arg(100)
    ->Arg(400)
    ->Unit(benchmark::kMillisecond);

// docs/CONTRACTS.md §5 row 8: regret matching (the online solver, PRM+ by default) from scratch to
// exploitability max_a (M p)(a) / max|M| <= 1e-4 on the same dense random margins, fed
// in as one weighted 2-player result per pair. The copy of the fed model is untimed.
void BM_RegretMatching(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  const Eigen::MatrixXd m = DenseRandomMargins(state.range(0));
  MaximalLotteryOptions options;
  options.target_exploitability = 1e-4;
  options.variant = static_cast<RegretVariant>(state.range(1));
  MaximalLottery fed = *MaximalLottery::Create(options);
  fed.Resize(n);
  const uint32_t ranks[2] = {1, 2};
  for (AgentId a = 0; a < n; ++a) {
    for (AgentId b = a + 1; b < n; ++b) {
      const AgentId pair[2] = {m(a, b) > 0 ? a : b, m(a, b) > 0 ? b : a};
      fed.Update({pair, ranks, std::abs(m(a, b))});
    }
  }
  int64_t iterations = 0;
  bool converged = true;
  for (auto _ : state) {
    state.PauseTiming();
    MaximalLottery ml = fed;
    state.ResumeTiming();
    const SolveStats stats = *ml.Solve();
    iterations = stats.iterations;
    converged = converged && stats.converged;
    benchmark::DoNotOptimize(ml.Lottery());
  }
  state.counters["iterations"] = static_cast<double>(iterations);
  state.counters["converged"] = converged ? 1 : 0;
}
BENCHMARK(BM_RegretMatching)
    ->ArgNames({"agents", "variant"})
    ->Args({400, static_cast<int>(RegretVariant::kPredictiveRegretMatchingPlus)})
    ->Args({400, static_cast<int>(RegretVariant::kRegretMatchingPlus)})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ratings::voting

BENCHMARK_MAIN();
