#include "ratings/batch/permuted_elo.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;

// When every result is the same, the order cannot matter: the average equals one online
// replay. By hand (K = 32): A beats B from 1500/1500 -> 1516/1484; again: E = 1/(1 +
// 10^(-32/400)) = 0.5459..., A += 32 (1 - E).
TEST(PermutedEloTest, IdenticalResultsGiveTheOnlineRatings) {
  VoteSet votes;
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 2};
  votes.Add({agents, ranks, 1.0});
  votes.Add({agents, ranks, 1.0});
  absl::StatusOr<std::vector<double>> r = PermutedElo(votes, {.permutations = 7});
  ASSERT_THAT(r, IsOk()) << r.status();
  Elo elo = *Elo::Create({});
  elo.Resize(2);
  elo.Update(votes[0]);
  elo.Update(votes[1]);
  EXPECT_NEAR((*r)[0], elo.Rating(0), 1e-9);
  EXPECT_NEAR((*r)[0], 1516 + 32 * (1 - 1 / (1 + std::pow(10.0, -32.0 / 400))), 1e-9);
}

// Each replay is zero-sum (docs/MODELS.md §2: pair updates are symmetric), so the average of
// every permutation keeps the total rating at n * initial; and a win and a loss average
// to the two orders' ratings, each of which is +-(1501.47 - 1500)-ish: both agents end
// within the spread of a single order.
TEST(PermutedEloTest, AveragesOrdersAndStaysZeroSum) {
  VoteSet votes;
  const std::vector<AgentId> ab = {0, 1};
  const std::vector<uint32_t> first = {1, 2}, second = {2, 1};
  votes.Add({ab, first, 1.0});
  votes.Add({ab, second, 1.0});
  absl::StatusOr<std::vector<double>> r = PermutedElo(votes, {.permutations = 100, .seed = 3});
  ASSERT_THAT(r, IsOk());
  EXPECT_NEAR((*r)[0] + (*r)[1], 3000.0, 1e-9);
  // Order "A wins, then B wins" leaves A at 1500 - 1.47; the other order +1.47.
  EXPECT_LT(std::abs((*r)[0] - 1500), 1.48);
  EXPECT_EQ(*PermutedElo(votes, {.permutations = 100, .seed = 3}), *r);  // deterministic
}

TEST(PermutedEloTest, RejectsNoPermutations) {
  EXPECT_THAT(PermutedElo(VoteSet(), {.permutations = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings
