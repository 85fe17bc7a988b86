#include "ratings/maximal_lottery.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::Play;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

constexpr AgentId kA = 0, kB = 1, kC = 2;

MaximalLottery Make(MaximalLotteryOptions options = {}) { return *MaximalLottery::Create(options); }

const RegretVariant kVariants[] = {RegretVariant::kPredictiveRegretMatchingPlus,
                                   RegretVariant::kRegretMatchingPlus,
                                   RegretVariant::kRegretMatching};

// Rock-paper-scissors: the unique maximal lottery is uniform ([VasE]
// introduction). With exploitability e = max(pR - pS, pP - pR, pS - pP) <= target for
// the cyclic margins, every probability is within 2e/3 of 1/3.
TEST(MaximalLotteryTest, RockPaperScissorsGivesTheUniformLottery) {
  for (RegretVariant variant : kVariants) {
    MaximalLottery ml = Make({.variant = variant});
    ml.Resize(3);
    Play(ml, {kA, kB}, {1, 2});
    Play(ml, {kB, kC}, {1, 2});
    Play(ml, {kC, kA}, {1, 2});
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
  Play(ml, {kA, kB}, {1, 2});
  Play(ml, {kB, kC}, {1, 2});
  Play(ml, {kC, kA}, {1, 2}, 2.0);
  ASSERT_TRUE(ml.Solve()->converged);
  const std::vector<double> p = ml.Lottery();
  EXPECT_NEAR(p[kA], 0.25, 1e-5);
  EXPECT_NEAR(p[kB], 0.50, 1e-5);
  EXPECT_NEAR(p[kC], 0.25, 1e-5);
}

// Pentathlon ([VasE] App., "Maximal Lotteries"): C is the Condorcet
// winner and the only maximal lottery puts probability 1 on it. From the certificate:
// (M p)(C) >= min_b M(C,b) (1 - p_C) = 1 - p_C, and (M p)(C) <= e max|M| = 3e.
TEST(MaximalLotteryTest, CondorcetWinnerGetsProbabilityOne) {
  for (RegretVariant variant : kVariants) {
    MaximalLottery ml = Make({.variant = variant});
    ml.Resize(3);
    Play(ml, {kA, kB, kC}, {1, 2, 3});
    Play(ml, {kA, kC, kB}, {1, 2, 3});
    Play(ml, {kC, kA, kB}, {1, 2, 3}, 2.0);
    Play(ml, {kB, kC, kA}, {1, 2, 3});
    ASSERT_TRUE(ml.Solve()->converged);
    const double e = ml.Exploitability();
    EXPECT_LE(e, 1e-3);
    EXPECT_GE(ml.Lottery()[kC], 1.0 - 3 * e - 1e-12);  // the bound is tight; allow rounding
    // Pruning the leftover mass is certified here (e_C has exploitability 0): exactly 1.
    EXPECT_EQ(ml.Lottery()[kC], 1.0);
    EXPECT_EQ(e, 0.0);
    // Ratings against the lottery (scale max|M| = 3): C's row (1, 1, 0) -> 0 at p = e_C;
    // A's row (0, 3, -1) -> -1/3; B's (-3, 0, -1) -> -1/3.
    EXPECT_NEAR(ml.Ratings()[kA], -1.0 / 3, 3e-3);
    EXPECT_NEAR(ml.Ratings()[kB], -1.0 / 3, 3e-3);
    EXPECT_NEAR(ml.Ratings()[kC], 0.0, 3e-3);
  }
}

// A 6-agent game with cycles (hand-made margins), solved in growing budgets. The bound
// on the final gap is per variant: predictive RM+ converges much faster than RM and RM+
// with simultaneous updates (measured: 6.5e-10, 6.0e-4, 1.5e-4 after 111,110 iterations).
TEST(MaximalLotteryTest, ExploitabilityShrinksWithIterations) {
  const std::pair<RegretVariant, double> kFinalBound[] = {
      {RegretVariant::kPredictiveRegretMatchingPlus, 1e-8},
      {RegretVariant::kRegretMatchingPlus, 1e-3},
      {RegretVariant::kRegretMatching, 1e-3}};
  for (const auto& [variant, bound] : kFinalBound) {
    MaximalLottery ml = Make({.variant = variant, .target_exploitability = 1e-12});
    ml.Resize(6);
    const std::vector<std::vector<AgentId>> games = {{0, 1, 2}, {2, 3, 4}, {4, 5, 0}, {1, 3, 5},
                                                     {5, 2, 1}, {3, 0, 4}, {4, 1, 0}};
    for (size_t i = 0; i < games.size(); ++i) {
      Play(ml, games[i], {1, 2, 3}, 1.0 + static_cast<double>(i % 3));
    }
    std::vector<double> gaps;
    for (int64_t budget : {10, 100, 1000, 10000, 100000}) {
      ASSERT_THAT(ml.Solve(budget), IsOk());
      gaps.push_back(ml.Exploitability());
    }
    for (size_t i = 1; i < gaps.size(); ++i) {
      EXPECT_LT(gaps[i], gaps[i - 1]) << "variant " << static_cast<int>(variant) << " step " << i;
    }
    EXPECT_LT(gaps.back(), bound) << "variant " << static_cast<int>(variant);
    EXPECT_EQ(ml.iterations(), 111110);
  }
}

// Closed form again: M(A,B) = 1000, M(B,C) = 1, M(C,A) = 1000 gives p = (1, 1000, 1000)/2001,
// so A's equilibrium probability 5.0e-4 is below the default support threshold 1e-3.
// Under target 1e-3 a lottery without A is certified (dropping A from p leaves
// exploitability 1/2000), and in this ill-conditioned game a 1e-3 lottery may sit far
// from p: only the certificate is asserted. Under target 1e-6 pruning A would break the
// certificate, so A keeps its closed-form probability.
TEST(MaximalLotteryTest, PruningIsReportedOnlyWhenItsCertificateHolds) {
  for (const double target : {1e-3, 1e-6}) {
    MaximalLottery ml = Make({.target_exploitability = target});
    ml.Resize(3);
    Play(ml, {kA, kB}, {1, 2}, 1000);
    Play(ml, {kB, kC}, {1, 2}, 1);
    Play(ml, {kC, kA}, {1, 2}, 1000);
    ASSERT_TRUE(ml.Solve()->converged);
    const std::vector<double> p = ml.Lottery();
    EXPECT_LE(ml.Exploitability(), target);
    EXPECT_NEAR(p[kA] + p[kB] + p[kC], 1.0, 1e-12);
    if (target == 1e-3) {
      EXPECT_EQ(p[kA], 0.0);
    } else {
      EXPECT_NEAR(p[kA], 1.0 / 2001, 1e-6);
      EXPECT_NEAR(p[kB], 1000.0 / 2001, 1e-3);
    }
  }
}

TEST(MaximalLotteryTest, NoPruningWhenTheThresholdIsZero) {
  MaximalLottery ml = Make({.support_threshold = 0});
  ml.Resize(2);
  Play(ml, {kA, kB}, {1, 2});
  ASSERT_TRUE(ml.Solve()->converged);
  EXPECT_LT(ml.Lottery()[kA], 1.0);  // the average keeps some mass on B
  EXPECT_GT(ml.Lottery()[kB], 0.0);
}

TEST(MaximalLotteryTest, NoMarginsMeansUniformAndZeroExploitability) {
  MaximalLottery ml = Make();
  ml.Resize(4);
  Play(ml, {0, 1, 2, 3}, {1, 1, 1, 1});
  const SolveStats stats = *ml.Solve();
  EXPECT_TRUE(stats.converged);
  EXPECT_EQ(stats.iterations, 0);
  EXPECT_EQ(ml.Exploitability(), 0.0);
  for (double p : ml.Lottery()) EXPECT_EQ(p, 0.25);
}

TEST(MaximalLotteryTest, ResultsAfterASolveAreScoredOnTheNewMargins) {
  MaximalLottery ml = Make();
  ml.Resize(2);
  Play(ml, {kA, kB}, {1, 2});
  ASSERT_TRUE(ml.Solve()->converged);
  EXPECT_GE(ml.Lottery()[kA], 1 - 1e-3);
  // B now beats A twice: B is the Condorcet winner; the warm start must follow.
  Play(ml, {kB, kA}, {1, 2});
  Play(ml, {kB, kA}, {1, 2});
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
  EXPECT_THAT(ml.Solve(),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("4 agents (max_agents 3")));
}

TEST(MaximalLotteryTest, RejectsBadOptions) {
  EXPECT_THAT(MaximalLottery::Create({.target_exploitability = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target")));
  EXPECT_THAT(MaximalLottery::Create({.support_threshold = 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("support_threshold")));
  EXPECT_THAT(MaximalLottery::Create({.max_iterations = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_iterations")));
  EXPECT_THAT(MaximalLottery::Create({.iterations_per_result = -1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("iterations_per_result")));
  EXPECT_THAT(MaximalLottery::Create({.max_agents = 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_agents")));
}

}  // namespace
}  // namespace ratings
