#include "ratings/maximal_lottery.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

constexpr AgentId kA = 0, kB = 1, kC = 2;

void Add(MaximalLottery& ml, std::vector<AgentId> agents, std::vector<uint32_t> ranks,
         double weight = 1) {
  ml.Update({agents, ranks, weight});
}

MaximalLottery Make(MaximalLotteryOptions options = {}) {
  return *MaximalLottery::Create(options);
}

const RegretVariant kVariants[] = {RegretVariant::kPredictiveRegretMatchingPlus,
                                   RegretVariant::kRegretMatchingPlus,
                                   RegretVariant::kRegretMatching};

// Rock-paper-scissors: the unique maximal lottery is uniform (voting-as-evaluation.md
// introduction). With exploitability e = max(pR - pS, pP - pR, pS - pP) <= target for
// the cyclic margins, every probability is within 2e/3 of 1/3.
TEST(MaximalLotteryTest, RockPaperScissorsGivesTheUniformLottery) {
  for (RegretVariant variant : kVariants) {
    MaximalLottery ml = Make({.variant = variant});
    ml.Resize(3);
    Add(ml, {kA, kB}, {1, 2});
    Add(ml, {kB, kC}, {1, 2});
    Add(ml, {kC, kA}, {1, 2});
    const SolveStats stats = *ml.Solve();
    EXPECT_TRUE(stats.converged);
    EXPECT_LE(ml.Exploitability(), 1e-3);
    for (double p : ml.Lottery()) EXPECT_NEAR(p, 1.0 / 3, 2e-3 / 3);
    for (double r : ml.Ratings()) EXPECT_NEAR(r, 0.0, 1e-3);
  }
}

// A weighted cycle with a closed form: M(A,B) = a, M(B,C) = b, M(C,A) = c > 0 has the
// unique equilibrium p proportional to (b, c, a). Here a = 1, b = 1, c = 2: (1, 2, 1)/4.
TEST(MaximalLotteryTest, WeightedCycleMatchesTheClosedForm) {
  MaximalLottery ml = Make({.target_exploitability = 1e-6});
  ml.Resize(3);
  Add(ml, {kA, kB}, {1, 2});
  Add(ml, {kB, kC}, {1, 2});
  Add(ml, {kC, kA}, {1, 2}, 2.0);
  ASSERT_TRUE(ml.Solve()->converged);
  const std::vector<double> p = ml.Lottery();
  EXPECT_NEAR(p[kA], 0.25, 1e-5);
  EXPECT_NEAR(p[kB], 0.50, 1e-5);
  EXPECT_NEAR(p[kC], 0.25, 1e-5);
}

// Pentathlon (voting-as-evaluation.md appendix, "Maximal Lotteries"): C is the Condorcet
// winner and the only maximal lottery puts probability 1 on it. From the certificate:
// (M p)(C) >= min_b M(C,b) (1 - p_C) = 1 - p_C, and (M p)(C) <= e max|M| = 3e.
TEST(MaximalLotteryTest, CondorcetWinnerGetsProbabilityOne) {
  for (RegretVariant variant : kVariants) {
    MaximalLottery ml = Make({.variant = variant});
    ml.Resize(3);
    Add(ml, {kA, kB, kC}, {1, 2, 3});
    Add(ml, {kA, kC, kB}, {1, 2, 3});
    Add(ml, {kC, kA, kB}, {1, 2, 3}, 2.0);
    Add(ml, {kB, kC, kA}, {1, 2, 3});
    ASSERT_TRUE(ml.Solve()->converged);
    const double e = ml.Exploitability();
    EXPECT_LE(e, 1e-3);
    EXPECT_GE(ml.Lottery()[kC], 1.0 - 3 * e);
    // Ratings against the lottery (scale max|M| = 3): C's row (1, 1, 0) -> 0 at p = e_C;
    // A's row (0, 3, -1) -> -1/3; B's (-3, 0, -1) -> -1/3.
    EXPECT_NEAR(ml.Ratings()[kA], -1.0 / 3, 3e-3);
    EXPECT_NEAR(ml.Ratings()[kB], -1.0 / 3, 3e-3);
    EXPECT_NEAR(ml.Ratings()[kC], 0.0, 3e-3);
  }
}

TEST(MaximalLotteryTest, ExploitabilityShrinksWithIterations) {
  // A 6-agent game with cycles (hand-made margins), solved in growing budgets.
  MaximalLottery ml = Make({.variant = RegretVariant::kRegretMatchingPlus,
                            .target_exploitability = 1e-12});
  ml.Resize(6);
  const std::vector<std::vector<AgentId>> games = {
      {0, 1, 2}, {2, 3, 4}, {4, 5, 0}, {1, 3, 5}, {5, 2, 1}, {3, 0, 4}, {4, 1, 0}};
  for (size_t i = 0; i < games.size(); ++i) Add(ml, games[i], {1, 2, 3}, 1.0 + static_cast<double>(i % 3));
  ASSERT_TRUE(ml.Solve(10).ok());
  const double after10 = ml.Exploitability();
  ASSERT_TRUE(ml.Solve(1000).ok());
  const double after1010 = ml.Exploitability();
  ASSERT_TRUE(ml.Solve(100000).ok());
  const double after101010 = ml.Exploitability();
  EXPECT_GT(after10, 0.0);
  EXPECT_LT(after1010, after10);
  EXPECT_LT(after101010, after1010);
  EXPECT_LT(after101010, 1e-4);
}

TEST(MaximalLotteryTest, NoMarginsMeansUniformAndZeroExploitability) {
  MaximalLottery ml = Make();
  ml.Resize(4);
  Add(ml, {0, 1, 2, 3}, {1, 1, 1, 1});
  const SolveStats stats = *ml.Solve();
  EXPECT_TRUE(stats.converged);
  EXPECT_EQ(stats.iterations, 0);
  EXPECT_EQ(ml.Exploitability(), 0.0);
  for (double p : ml.Lottery()) EXPECT_EQ(p, 0.25);
}

TEST(MaximalLotteryTest, ResultsAfterASolveAreScoredOnTheNewMargins) {
  MaximalLottery ml = Make();
  ml.Resize(2);
  Add(ml, {kA, kB}, {1, 2});
  ASSERT_TRUE(ml.Solve()->converged);
  EXPECT_GE(ml.Lottery()[kA], 1 - 1e-3);
  // B now beats A twice: B is the Condorcet winner; the warm start must follow.
  Add(ml, {kB, kA}, {1, 2});
  Add(ml, {kB, kA}, {1, 2});
  ASSERT_TRUE(ml.Solve()->converged);
  EXPECT_LE(ml.Exploitability(), 1e-3);
  EXPECT_GE(ml.Lottery()[kB], 1 - 1e-3);
}

TEST(MaximalLotteryTest, RefusedAboveMaxAgents) {
  MaximalLottery ml = Make({.max_agents = 3});
  ml.Resize(3);
  EXPECT_FALSE(ml.refused());
  ml.Resize(4);
  EXPECT_TRUE(ml.refused());
  EXPECT_THAT(ml.Solve(), StatusIs(absl::StatusCode::kFailedPrecondition,
                                   HasSubstr("4 agents (max_agents 3")));
}

TEST(MaximalLotteryTest, RejectsBadOptions) {
  EXPECT_THAT(MaximalLottery::Create({.target_exploitability = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target")));
  EXPECT_THAT(MaximalLottery::Create({.max_iterations = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_iterations")));
  EXPECT_THAT(MaximalLottery::Create({.iterations_per_result = -1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("iterations_per_result")));
  EXPECT_THAT(MaximalLottery::Create({.max_agents = 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_agents")));
}

}  // namespace
}  // namespace ratings
