#include "ratings/sco.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::Play;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

// Hand-computed values (Python, from docs/MODELS.md §3: s = sigma((theta_b - theta_a)/tau),
// theta_a += alpha w s(1-s)/tau, theta_b -= the same, then clip).
TEST(ScoTest, NewAgentsStartAtTheMidpoint) {
  Sco sco = *Sco::Create({.min = -10, .max = 30});
  sco.Resize(1);
  EXPECT_EQ(sco.Rating(0), 10.0);
}

TEST(ScoTest, FirstWinBetweenNewcomers) {
  Sco sco = *Sco::Create({});
  sco.Resize(2);
  Play(sco, {0, 1}, {1, 2});  // s = 1/2: move = 0.1 * 0.25
  EXPECT_DOUBLE_EQ(sco.Rating(0), 50.025);
  EXPECT_DOUBLE_EQ(sco.Rating(1), 49.975);
  Play(sco, {0, 1}, {1, 2});  // s = sigma(-0.05) = 0.48750260351579044
  EXPECT_NEAR(sco.Rating(0), 50.04998438150811, 1e-12);
  EXPECT_NEAR(sco.Rating(1), 49.95001561849189, 1e-12);
}

TEST(ScoTest, TiesContributeNothingAndWeightAndTauScale) {
  Sco sco = *Sco::Create({.alpha = 0.1, .tau = 2});
  sco.Resize(3);
  // X first, Y and Z tied: pairs (X,Y), (X,Z) move by 0.1*3*0.25/2 = 0.0375 each.
  Play(sco, {0, 1, 2}, {1, 2, 2}, 3.0);
  EXPECT_DOUBLE_EQ(sco.Rating(0), 50.075);
  EXPECT_DOUBLE_EQ(sco.Rating(1), 49.9625);
  EXPECT_DOUBLE_EQ(sco.Rating(2), 49.9625);
}

TEST(ScoTest, AllTiedMovesNothing) {
  Sco sco = *Sco::Create({});
  sco.Resize(3);
  Play(sco, {0, 1, 2}, {1, 1, 1});
  for (AgentId a = 0; a < 3; ++a) EXPECT_EQ(sco.Rating(a), 50.0);
}

TEST(ScoTest, ProjectionClipsToTheBounds) {
  Sco sco = *Sco::Create({.alpha = 1000});  // move = 1000 * 0.25 = 250
  sco.Resize(2);
  Play(sco, {1, 0}, {2, 1});
  EXPECT_EQ(sco.Rating(0), 100.0);
  EXPECT_EQ(sco.Rating(1), 0.0);
}

// [SCO] §4.1, Eq. (10): 2: A>B>C, 3: C>A>B. C is the strong Condorcet winner, A has
// the higher win rate. Replayed online, interleaved, SCO top-ranks C. (That Elo top-ranks
// A on the same stream is in pool_test.cc.)
constexpr AgentId kA = 0, kB = 1, kC = 2;
void ReplayEquation10(Sco& sco, int cycles) {
  for (int i = 0; i < cycles; ++i) {
    Play(sco, {kA, kB, kC}, {1, 2, 3});
    Play(sco, {kC, kA, kB}, {1, 2, 3});
    Play(sco, {kA, kB, kC}, {1, 2, 3});
    Play(sco, {kC, kA, kB}, {1, 2, 3});
    Play(sco, {kC, kA, kB}, {1, 2, 3});
  }
}

TEST(ScoTest, TopRanksTheCondorcetWinnerOfEquation10) {
  Sco sco = *Sco::Create({});
  sco.Resize(3);
  ReplayEquation10(sco, 500);
  EXPECT_GT(sco.Rating(kC), sco.Rating(kA));
  EXPECT_GT(sco.Rating(kA), sco.Rating(kB));
}

// Theorem 1: the loss decreases monotonically in the Condorcet winner's rating, so with
// enough data it sits at theta_max. On a [0, 10] box with alpha 0.5 an independent
// Python replay reaches theta_C = 10 after 173 cycles; 2000 leave a wide margin.
TEST(ScoTest, CondorcetWinnerReachesThetaMax) {
  Sco sco = *Sco::Create({.alpha = 0.5, .tau = 1, .min = 0, .max = 10});
  sco.Resize(3);
  ReplayEquation10(sco, 2000);
  EXPECT_EQ(sco.Rating(kC), 10.0);
  EXPECT_LT(sco.Rating(kA), 10.0);
}

TEST(ScoTest, RejectsBadOptions) {
  EXPECT_THAT(Sco::Create({.alpha = 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("alpha")));
  EXPECT_THAT(Sco::Create({.tau = -1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tau")));
  EXPECT_THAT(Sco::Create({.min = 5, .max = 5}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("min < max")));
}

}  // namespace
}  // namespace ratings
