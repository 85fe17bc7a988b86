#include "ratings/batch/sco_batch.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

void Add(VoteSet& votes, std::vector<AgentId> agents, std::vector<uint32_t> ranks, int copies = 1,
         double weight = 1.0) {
  for (int i = 0; i < copies; ++i) votes.Add({agents, ranks, weight});
}

// SCO §4.1, Eq. (10): 2: A>B>C, 3: C>A>B (A = 0, B = 1, C = 2).
VoteSet PaperExample() {
  VoteSet votes;
  Add(votes, {0, 1, 2}, {1, 2, 3}, 2);
  Add(votes, {2, 0, 1}, {1, 2, 3}, 3);
  return votes;
}

// One step by hand (Eq. 5-7): one vote A>B>C, batch 2 (both samples are that vote),
// alpha 0.1, tau 1, theta^0 = 50. Every pair has s = sigma(0) = 1/2, s(1-s) = 1/4:
// gradient per vote A +1/2, B 0, C -1/2; the batch sums two votes; step alpha.
TEST(ScoBatchTest, OneStepByHand) {
  VoteSet votes;
  Add(votes, {0, 1, 2}, {1, 2, 3});
  absl::StatusOr<std::vector<double>> theta =
      SolveScoBatch(votes, {.batch = 2, .iterations = 1, .alpha = 0.1, .tau = 1});
  ASSERT_THAT(theta, IsOk()) << theta.status();
  EXPECT_DOUBLE_EQ((*theta)[0], 50.1);
  EXPECT_DOUBLE_EQ((*theta)[1], 50.0);
  EXPECT_DOUBLE_EQ((*theta)[2], 49.9);
}

// Second step from (50.1, 50, 49.9), Python with the same formulas:
// 50.19937852258095, 50.0, 49.80062147741905.
TEST(ScoBatchTest, TwoStepsByHand) {
  VoteSet votes;
  Add(votes, {0, 1, 2}, {1, 2, 3});
  absl::StatusOr<std::vector<double>> theta =
      SolveScoBatch(votes, {.batch = 2, .iterations = 2, .alpha = 0.1, .tau = 1});
  ASSERT_THAT(theta, IsOk());
  EXPECT_NEAR((*theta)[0], 50.19937852258095, 1e-12);
  EXPECT_NEAR((*theta)[1], 50.0, 1e-12);
  EXPECT_NEAR((*theta)[2], 49.80062147741905, 1e-12);
}

// Weight 3 and tau 2, batch 1: step alpha/tau * w * s(1-s) per pair = 0.05 * 3 * 1/4;
// A gains two pairs (50.075), C loses two (49.925), B nets zero. Then PROJ: with
// max = 50.05 A is clipped.
// A warm start is theta^0: one step from (50.1, 50, 49.9) equals the second step of
// TwoStepsByHand; a start outside [min, max] or of the wrong size is refused.
TEST(ScoBatchTest, StartIsThetaZero) {
  VoteSet votes;
  Add(votes, {0, 1, 2}, {1, 2, 3});
  ScoBatchOptions o = {.batch = 2, .iterations = 1, .alpha = 0.1, .tau = 1};
  o.start = {50.1, 50.0, 49.9};
  absl::StatusOr<std::vector<double>> theta = SolveScoBatch(votes, o);
  ASSERT_THAT(theta, IsOk()) << theta.status();
  EXPECT_NEAR((*theta)[0], 50.19937852258095, 1e-12);
  EXPECT_NEAR((*theta)[2], 49.80062147741905, 1e-12);
  o.start = {50.0, 101.0, 50.0};
  EXPECT_THAT(SolveScoBatch(votes, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("outside [min, max]")));
  o.start = {50.0};
  EXPECT_THAT(SolveScoBatch(votes, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("1 starting ratings for 3")));
}

TEST(ScoBatchTest, WeightTauAndProjection) {
  VoteSet votes;
  Add(votes, {0, 1, 2}, {1, 2, 3}, 1, 3.0);
  absl::StatusOr<std::vector<double>> theta =
      SolveScoBatch(votes, {.batch = 1, .iterations = 1, .alpha = 0.1, .tau = 2});
  ASSERT_THAT(theta, IsOk());
  EXPECT_DOUBLE_EQ((*theta)[0], 50.075);
  EXPECT_DOUBLE_EQ((*theta)[1], 50.0);
  EXPECT_DOUBLE_EQ((*theta)[2], 49.925);
  absl::StatusOr<std::vector<double>> clipped = SolveScoBatch(
      votes, {.batch = 1, .iterations = 1, .alpha = 0.1, .tau = 2, .min = 49.95, .max = 50.05});
  ASSERT_THAT(clipped, IsOk());
  EXPECT_DOUBLE_EQ((*clipped)[0], 50.05);
  EXPECT_DOUBLE_EQ((*clipped)[2], 49.95);
}

TEST(ScoBatchTest, TiesMoveNothing) {
  VoteSet votes;
  Add(votes, {0, 1}, {1, 1});
  absl::StatusOr<std::vector<double>> theta = SolveScoBatch(votes, {.iterations = 10});
  ASSERT_THAT(theta, IsOk());
  EXPECT_EQ((*theta)[0], 50.0);
  EXPECT_EQ((*theta)[1], 50.0);
}

// SCO §4.1 / App. D.1: Algorithm 1 converges to the optimal ranking C > A > B (C is the
// strong Condorcet winner), with batch 2 as in Table 4.
TEST(ScoBatchTest, PaperExampleTopRanksTheCondorcetWinner) {
  for (uint64_t seed : {1, 2, 3}) {
    absl::StatusOr<std::vector<double>> theta = SolveScoBatch(
        PaperExample(), {.batch = 2, .iterations = 2000, .alpha = 0.1, .tau = 1, .seed = seed});
    ASSERT_THAT(theta, IsOk());
    EXPECT_GT((*theta)[2], (*theta)[0]) << "seed " << seed;
    EXPECT_GT((*theta)[0], (*theta)[1]) << "seed " << seed;
  }
}

// SCO §4.1: "Fenchel-Young gradient descent top-ranks agent A" on the same profile
// (mean observed ranks A 1.4, C 1.2, B 0.4).
TEST(ScoFenchelYoungTest, PaperExampleTopRanksA) {
  absl::StatusOr<std::vector<double>> theta = SolveScoFenchelYoung(
      PaperExample(), {.batch = 32, .iterations = 5000, .alpha = 0.01, .seed = 4});
  ASSERT_THAT(theta, IsOk());
  EXPECT_GT((*theta)[0], (*theta)[2]);
  EXPECT_GT((*theta)[2], (*theta)[1]);
}

// Closed form: for two agents, y*_eps gives A rank 1 with probability
// P(theta_A + eps Z_A > theta_B + eps Z_B) = sigma((theta_A - theta_B)/eps) (a difference
// of Gumbels is logistic), and the Fenchel–Young loss is minimal where that equals the
// observed mean rank of A, here 3/4: theta_A - theta_B = eps ln 3.
TEST(ScoFenchelYoungTest, TwoAgentsConvergeToTheLogitOfTheWinRate) {
  VoteSet votes;
  Add(votes, {0, 1}, {1, 2}, 3);
  Add(votes, {0, 1}, {2, 1}, 1);
  absl::StatusOr<std::vector<double>> theta = SolveScoFenchelYoung(
      votes, {.batch = 32, .iterations = 100000, .alpha = 0.005, .epsilon = 2, .seed = 9});
  ASSERT_THAT(theta, IsOk());
  EXPECT_NEAR((*theta)[0] - (*theta)[1], 2 * std::log(3.0), 0.1);
}

TEST(ScoBatchTest, DeterministicForASeed) {
  const VoteSet votes = PaperExample();
  const ScoBatchOptions options = {.batch = 3, .iterations = 50, .alpha = 0.1, .seed = 7};
  EXPECT_EQ(*SolveScoBatch(votes, options), *SolveScoBatch(votes, options));
  ScoBatchOptions other = options;
  other.seed = 8;
  EXPECT_NE(*SolveScoBatch(votes, options), *SolveScoBatch(votes, other));
  const ScoFenchelYoungOptions fy = {.batch = 3, .iterations = 50, .seed = 7};
  EXPECT_EQ(*SolveScoFenchelYoung(votes, fy), *SolveScoFenchelYoung(votes, fy));
}

TEST(ScoBatchTest, EmptyProfileGivesTheMidpoint) {
  VoteSet votes;
  votes.SetNumAgents(2);
  EXPECT_THAT(*SolveScoBatch(votes, {.min = -2, .max = 4}), ::testing::ElementsAre(1.0, 1.0));
}

TEST(ScoBatchTest, RejectsBadOptions) {
  const VoteSet votes = PaperExample();
  EXPECT_THAT(SolveScoBatch(votes, {.batch = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("batch")));
  EXPECT_THAT(SolveScoBatch(votes, {.iterations = -1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("iterations")));
  EXPECT_THAT(SolveScoBatch(votes, {.alpha = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("alpha")));
  EXPECT_THAT(SolveScoBatch(votes, {.tau = -1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tau")));
  EXPECT_THAT(SolveScoBatch(votes, {.min = 1, .max = 1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("min < max")));
  EXPECT_THAT(SolveScoFenchelYoung(votes, {.epsilon = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")));
  EXPECT_THAT(SolveScoFenchelYoung(votes, {.samples = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("samples")));
}

}  // namespace
}  // namespace ratings
