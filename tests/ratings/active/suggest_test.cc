// The suggestion strategies of ratings/active/suggest.h (docs/ACTIVE.md §6) against hand
// computations, and the game counts of ratings/game_counts.h they read.
#include "ratings/active/suggest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ratings/game_counts.h"
#include "ratings/pool.h"
#include "ratings/result.h"

namespace ratings::active {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs Names(const std::vector<SuggestedPair>& pairs) {
  Pairs out;
  for (const SuggestedPair& p : pairs) out.emplace_back(p.a, p.b);
  return out;
}

Result Game(const std::vector<std::pair<std::string, uint32_t>>& standings) {
  Result result;
  for (const auto& [agent, rank] : standings)
    result.standings.push_back({agent, rank, std::nullopt});
  return result;
}

TEST(GameCountsTest, AResultIsKMinusOneGamesPerAgentWithTiesAsHalf) {
  // X first, Y and Z tied second, weight 2: each plays 2 games of weight 2 = 4;
  // X beats both (4 points), Y and Z lose to X and tie each other (2 × ½ = 1 point).
  GameCounts counts;
  counts.Resize(3);
  const std::vector<AgentId> ids = {0, 1, 2};
  const std::vector<uint32_t> ranks = {1, 2, 2};
  counts.Update({ids, ranks, 2.0});
  EXPECT_EQ(counts.games(), (std::vector<double>{4, 4, 4}));
  EXPECT_EQ(counts.points(), (std::vector<double>{4, 1, 1}));
  EXPECT_EQ(counts.results(), (std::vector<uint64_t>{1, 1, 1}));  // one result, whatever its weight
}

// Update counts by pairs for a few agents and by sorting for many (more than 16): both give
// what the definition gives. 20 agents in 5 tied groups of 4 (ranks 1..5), weight 1: each
// plays 19 games; an agent of group g (0 = best) beats the 4·(4 − g) agents below and ties
// 3, so it earns 4·(4 − g) + 1.5 points. Then the first 3 of them alone, ranks 1, 1, 2.
TEST(GameCountsTest, FewAndManyAgentsCountAlike) {
  GameCounts counts;
  counts.Resize(20);
  std::vector<AgentId> ids;
  std::vector<uint32_t> ranks;
  for (AgentId a = 0; a < 20; ++a) {
    ids.push_back(a);
    ranks.push_back(a / 4 + 1);
  }
  counts.Update({ids, ranks, 1.0});
  for (AgentId a = 0; a < 20; ++a) {
    EXPECT_EQ(counts.games()[a], 19) << a;
    EXPECT_EQ(counts.points()[a], 4.0 * (4 - a / 4) + 1.5) << a;
  }
  GameCounts few;
  few.Resize(3);
  const std::vector<uint32_t> few_ranks = {1, 1, 2};
  few.Update({absl::MakeConstSpan(ids).first(3), few_ranks, 1.0});
  EXPECT_EQ(few.games(), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(few.points(), (std::vector<double>{1.5, 1.5, 0}));
}

TEST(GameCountsTest, PoolKeepsThemThroughExportAndFromState) {
  absl::StatusOr<Pool> pool = Pool::Create({});
  ASSERT_TRUE(pool.ok());
  ASSERT_TRUE(pool->Apply(Game({{"a", 1}, {"b", 2}})).ok());
  ASSERT_TRUE(pool->Apply(Game({{"b", 1}, {"c", 1}})).ok());
  EXPECT_EQ(pool->games().games(), (std::vector<double>{1, 2, 1}));
  EXPECT_EQ(pool->games().points(), (std::vector<double>{1, 0.5, 0.5}));
  EXPECT_EQ(pool->games().results(), (std::vector<uint64_t>{1, 2, 1}));
  PoolState state = pool->ExportState();
  absl::StatusOr<Pool> restored = Pool::FromState({}, state);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->games().games(), pool->games().games());
  EXPECT_EQ(restored->games().points(), pool->games().points());
  EXPECT_EQ(restored->games().results(), pool->games().results());
  // A state from before the result counts were kept: every agent starts at 0 results.
  PoolState no_counts = state;
  no_counts.result_counts.clear();
  restored = Pool::FromState({}, no_counts);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->games().results(), (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(restored->games().games(), pool->games().games());
  no_counts.result_counts = {1, 2};
  EXPECT_FALSE(Pool::FromState({}, no_counts).ok());
  // A state from before the counts were kept: every agent starts with no games.
  state.games.clear();
  state.points.clear();
  restored = Pool::FromState({}, state);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->games().games(), (std::vector<double>{0, 0, 0}));
  state.games = {1, 2};
  state.points = {1, 1};
  EXPECT_FALSE(Pool::FromState({}, state).ok());
}

TEST(SuggestTest, StrategyNamesRoundTrip) {
  for (SuggestStrategy s :
       {SuggestStrategy::kUniform, SuggestStrategy::kUcb, SuggestStrategy::kMl}) {
    EXPECT_EQ(ParseSuggestStrategy(SuggestStrategyName(s)), s);
  }
  EXPECT_FALSE(ParseSuggestStrategy("UCB").has_value());
}

TEST(SuggestTest, ExplorationMustBeInZeroOne) {
  EXPECT_TRUE(CheckExploration(0).ok());
  EXPECT_TRUE(CheckExploration(1).ok());
  EXPECT_FALSE(CheckExploration(-0.01).ok());
  EXPECT_FALSE(CheckExploration(1.01).ok());
  EXPECT_FALSE(CheckExploration(std::nan("")).ok());
}

TEST(SuggestTest, RngDependsOnSequenceAndSeed) {
  std::mt19937_64 a = SuggestRng(5, 1), b = SuggestRng(5, 1), c = SuggestRng(6, 1),
                  d = SuggestRng(5, 2);
  const uint64_t first = a();
  EXPECT_EQ(first, b());
  EXPECT_NE(first, c());
  EXPECT_NE(first, d());
}

TEST(SuggestTest, UcbScoreIsMeanPlusBonus) {
  // 3 points in 4 games of 10: 0.75 + √2·sqrt(ln 10 / 4) = 1.8229830131446738.
  EXPECT_NEAR(UcbScore(4, 3, 10), 1.8229830131446738, 1e-15);
  EXPECT_EQ(UcbScore(0, 0, 10), std::numeric_limits<double>::infinity());
  // log T_total < 0 (total weight below 1) is floored at 0: the mean alone.
  EXPECT_DOUBLE_EQ(UcbScore(0.25, 0.125, 0.5), 0.5);
}

TEST(SuggestTest, UcbRanksPairsBySumThenPlace) {
  // T_total = 10. UCB: A 0.75 + 1.0730 = 1.8230, B 0.25 + 1.0730 = 1.3230,
  // C 0.5 + √2·sqrt(ln 10 / 2) = 2.0174, D no games = +∞. Listed D, C, A, B; pairs with D
  // tie at +∞ and go by place; then C+A 3.84, C+B 3.34, A+B 3.15.
  const std::vector<std::string> agents = {"A", "B", "C", "D"};
  const std::vector<double> games = {4, 4, 2, 0};
  const std::vector<double> points = {3, 1, 1, 0};
  const std::vector<SuggestedPair> all = SuggestUcb(agents, games, points, 10);
  EXPECT_EQ(Names(all),
            (Pairs{{"D", "C"}, {"D", "A"}, {"D", "B"}, {"C", "A"}, {"C", "B"}, {"A", "B"}}));
  for (const SuggestedPair& p : all) EXPECT_EQ(p.probability, 1.0);
  EXPECT_EQ(Names(SuggestUcb(agents, games, points, 2)), (Pairs{{"D", "C"}, {"D", "A"}}));
  // Equal UCBs go by name.
  EXPECT_EQ(Names(SuggestUcb({"y", "x", "z"}, {0, 0, 0}, {0, 0, 0}, 2)),
            (Pairs{{"x", "y"}, {"x", "z"}}));
  EXPECT_TRUE(SuggestUcb({"only"}, {1}, {1}, 5).empty());
}

TEST(SuggestTest, UcbTopPairsEqualTheFullRankingOfEveryPair) {
  // The heap over the first n + 1 agents against sorting all m(m-1)/2 pairs.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const size_t m = 2 + rng() % 30;
    std::vector<std::string> agents;
    std::vector<double> games, points;
    for (size_t i = 0; i < m; ++i) {
      agents.push_back(absl::StrCat("a", rng() % 1000, "_", i));
      const double g = static_cast<double>(rng() % 4);  // few values: ties
      games.push_back(g);
      points.push_back(
          g == 0 ? 0 : static_cast<double>(rng() % (static_cast<uint64_t>(g) * 2 + 1)) / 2);
    }
    double total = 0;
    for (double g : games) total += g;
    std::vector<double> ucb;
    for (size_t i = 0; i < m; ++i) ucb.push_back(UcbScore(games[i], points[i], total));
    std::vector<size_t> order(m);
    for (size_t i = 0; i < m; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      return ucb[x] != ucb[y] ? ucb[x] > ucb[y] : agents[x] < agents[y];
    });
    std::vector<std::tuple<double, size_t, size_t>> pairs;
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = i + 1; j < m; ++j) pairs.emplace_back(ucb[order[i]] + ucb[order[j]], i, j);
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
      return std::get<0>(x) > std::get<0>(y);  // (i, j) already ascending within a sum
    });
    const size_t n = 1 + rng() % 12;
    Pairs want;
    for (size_t k = 0; k < std::min(n, pairs.size()); ++k) {
      want.emplace_back(agents[order[std::get<1>(pairs[k])]], agents[order[std::get<2>(pairs[k])]]);
    }
    EXPECT_EQ(Names(SuggestUcb(agents, games, points, n)), want) << "trial " << trial;
  }
}

TEST(SuggestTest, UniformDrawsDistinctAgentsWithOrderedPairProbability) {
  const std::vector<std::string> agents = {"a", "b", "c"};
  std::mt19937_64 rng = SuggestRng(3, 0);
  const std::vector<SuggestedPair> pairs = SuggestUniform(agents, 60000, rng);
  ASSERT_EQ(pairs.size(), 60000u);
  std::map<std::pair<std::string, std::string>, int> seen;
  for (const SuggestedPair& p : pairs) {
    EXPECT_NE(p.a, p.b);
    EXPECT_DOUBLE_EQ(p.probability, 1.0 / 6.0);  // 1 / (m(m-1))
    ++seen[{p.a, p.b}];
  }
  // 6 ordered pairs of 1/6 each: binomial sd sqrt(p(1-p)/N) = 0.0015; tolerance 0.008.
  ASSERT_EQ(seen.size(), 6u);
  for (const auto& [pair, count] : seen) EXPECT_NEAR(count / 60000.0, 1.0 / 6.0, 0.008);
  std::mt19937_64 again = SuggestRng(3, 0);
  EXPECT_EQ(Names(SuggestUniform(agents, 60000, again)), Names(pairs));
  EXPECT_TRUE(SuggestUniform({"solo"}, 10, rng).empty());
}

// σ'(a)σ'(b)/(1-σ'(a)) for every ordered pair.
std::map<std::pair<size_t, size_t>, double> MlProbabilities(const std::vector<double>& mixed) {
  std::map<std::pair<size_t, size_t>, double> p;
  for (size_t a = 0; a < mixed.size(); ++a) {
    for (size_t b = 0; b < mixed.size(); ++b) {
      if (a != b) p[{a, b}] = mixed[a] * mixed[b] / (1 - mixed[a]);
    }
  }
  return p;
}

TEST(SuggestTest, MlProbabilityIsTheFormulaByHand) {
  // σ = (½, ½, 0), ε = 0.3: σ' = 0.1 + 0.7σ = (0.45, 0.45, 0.1).
  // (A, B): 0.45·0.45/0.55 = 0.3681818…; (A, C): 0.45·0.1/0.55 = 0.0818181…;
  // (C, A): 0.1·0.45/0.9 = 0.05.
  std::mt19937_64 rng = SuggestRng(0, 0);
  const std::map<std::pair<std::string, std::string>, double> want = {
      {{"A", "B"}, 0.45 * 0.45 / 0.55},
      {{"B", "A"}, 0.45 * 0.45 / 0.55},
      {{"A", "C"}, 0.45 * 0.1 / 0.55},
      {{"B", "C"}, 0.45 * 0.1 / 0.55},
      {{"C", "A"}, 0.05},
      {{"C", "B"}, 0.05}};
  for (const SuggestedPair& p : SuggestMl({"A", "B", "C"}, {0.5, 0.5, 0}, 0.3, 200, rng)) {
    ASSERT_TRUE(want.count({p.a, p.b})) << p.a << p.b;
    EXPECT_NEAR(p.probability, want.at({p.a, p.b}), 1e-12);
  }
}

TEST(SuggestTest, MlDrawsFollowTheFormulaOverManyDraws) {
  // σ = (0.4, 0.3, 0.2, 0.1, 0), ε = 0.1: σ' = 0.02 + 0.9σ = (0.38, 0.29, 0.2, 0.11, 0.02).
  // N = 400,000 draws; the largest binomial sd sqrt(p(1-p)/N) is 0.0008, so a tolerance
  // of 0.004 (5 sd) on every ordered pair's frequency.
  const std::vector<std::string> agents = {"A", "B", "C", "D", "E"};
  const std::vector<double> mixed = {0.38, 0.29, 0.2, 0.11, 0.02};
  const auto want = MlProbabilities(mixed);
  const int draws = 400000;
  std::mt19937_64 rng = SuggestRng(42, 9);
  std::map<std::pair<size_t, size_t>, int> seen;
  for (const SuggestedPair& p : SuggestMl(agents, {0.4, 0.3, 0.2, 0.1, 0}, 0.1, draws, rng)) {
    const size_t a = static_cast<size_t>(p.a[0] - 'A'), b = static_cast<size_t>(p.b[0] - 'A');
    ASSERT_NE(a, b);
    EXPECT_NEAR(p.probability, want.at({a, b}), 1e-12);
    ++seen[{a, b}];
  }
  double sum = 0;
  for (const auto& [pair, p] : want) {
    sum += p;
    EXPECT_NEAR(seen[pair] / static_cast<double>(draws), p, 0.004)
        << agents[pair.first] << agents[pair.second];
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(SuggestTest, MlWithFullExplorationIsUniformAndAPointLotteryPairsItsWinnerUniformly) {
  std::mt19937_64 rng = SuggestRng(1, 1);
  for (const SuggestedPair& p : SuggestMl({"a", "b", "c", "d"}, {1, 0, 0, 0}, 1.0, 100, rng)) {
    EXPECT_NEAR(p.probability, 1.0 / 12, 1e-15);
  }
  // ε = 0 and σ = point mass on a: a is always first, b uniform over the others,
  // probability σ'(a)/(m-1) = 1/3.
  std::map<std::string, int> second;
  for (const SuggestedPair& p : SuggestMl({"a", "b", "c", "d"}, {1, 0, 0, 0}, 0.0, 30000, rng)) {
    EXPECT_EQ(p.a, "a");
    EXPECT_DOUBLE_EQ(p.probability, 1.0 / 3);
    ++second[p.b];
  }
  ASSERT_EQ(second.size(), 3u);
  for (const auto& [b, count] : second) EXPECT_NEAR(count / 30000.0, 1.0 / 3, 0.015);
  // An all-zero lottery counts as uniform; fewer than 2 agents give nothing.
  for (const SuggestedPair& p : SuggestMl({"a", "b"}, {0, 0}, 0.0, 10, rng)) {
    EXPECT_DOUBLE_EQ(p.probability, 0.5);
  }
  EXPECT_TRUE(SuggestMl({"a"}, {1}, 0.1, 10, rng).empty());
}

}  // namespace
}  // namespace ratings::active
