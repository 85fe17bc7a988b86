#include "ratings/batch/permuted_elo.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
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

// By hand: agent 0 ends at 1, 3, 5 -> mean 3, sample variance (4 + 0 + 4) / 2 = 4, SEM
// 2 / sqrt(3); agent 1 always 4 -> SEM 0.
TEST(PermutedEloTest, SummaryIsMeanAndStandardError) {
  const std::vector<std::vector<double>> finals = {{1, 4}, {3, 4}, {5, 4}};
  const PermutationSummary summary = SummarizePermutations(finals);
  EXPECT_THAT(summary.mean, ::testing::ElementsAre(3.0, 4.0));
  EXPECT_NEAR(summary.sem[0], 2 / std::sqrt(3.0), 1e-15);
  EXPECT_EQ(summary.sem[1], 0.0);
  // One replay: its spread is unknown, reported as 0.
  EXPECT_THAT(SummarizePermutations({{7, 2}}).sem, ::testing::ElementsAre(0.0, 0.0));
}

// By hand: agent 0 is strictly above agent 1 in replays 1 and 4 of 4; the level replay
// orders neither way.
TEST(PermutedEloTest, OrderAgreementCountsStrictlyHigher) {
  const std::vector<std::vector<double>> finals = {{2, 1}, {1, 2}, {1, 1}, {3, 0}};
  EXPECT_EQ(OrderAgreement(finals, 0, 1), 0.5);
  EXPECT_EQ(OrderAgreement(finals, 1, 0), 0.25);
}

// Unshuffled, the one replay is online Elo in the given order: A beats B, then B beats A.
// By hand (K = 32, 1500): 1516 / 1484, then E_B = 1 / (1 + 10^(32/400)) and B gains
// 32 (1 - E_B).
TEST(PermutedEloTest, UnshuffledReplaysTheGivenOrder) {
  VoteSet votes;
  const std::vector<AgentId> ab = {0, 1};
  const std::vector<uint32_t> a_wins = {1, 2}, b_wins = {2, 1};
  votes.Add({ab, a_wins, 1.0});
  votes.Add({ab, b_wins, 1.0});
  auto finals = PermutedEloFinals(votes, {.permutations = 1, .seed = 9, .shuffle = false});
  ASSERT_THAT(finals, IsOk());
  const double gain = 32 * (1 - 1 / (1 + std::pow(10.0, 32.0 / 400)));
  EXPECT_NEAR((*finals)[0][1], 1484 + gain, 1e-9);
  EXPECT_NEAR((*finals)[0][0], 1516 - gain, 1e-9);
  EXPECT_THAT(PermutedEloFinals(votes, {.permutations = 2, .shuffle = false}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("must be 1")));
}

// [EU] Table 1's invariant: online Elo is zero-sum, so every replay's ratings, and so
// their mean, sum to agents x initial, for any K, order or permutation count. Three agents,
// the scenario "A >> B, B ~ C" with draws as well.
TEST(PermutedEloTest, EveryReplayIsZeroSum) {
  VoteSet votes;
  const std::vector<AgentId> ab = {0, 1}, bc = {1, 2};
  const std::vector<uint32_t> first = {1, 2}, second = {2, 1}, draw = {1, 1};
  for (int i = 0; i < 40; ++i) {
    votes.Add({ab, i % 4 == 0 ? second : first, 1.0});
    votes.Add({bc, i % 3 == 0 ? draw : (i % 2 == 0 ? first : second), 1.0});
  }
  for (double k : {1.0, 16.0, 64.0}) {
    for (int64_t permutations : {int64_t{1}, int64_t{100}}) {
      SCOPED_TRACE(absl::StrCat("K ", k, ", permutations ", permutations));
      auto finals = PermutedEloFinals(votes, {.permutations = permutations,
                                              .elo = {.k = k, .initial = 1400},
                                              .seed = 5,
                                              .shuffle = permutations > 1});
      ASSERT_THAT(finals, IsOk());
      for (const std::vector<double>& replay : *finals) {
        EXPECT_NEAR(replay[0] + replay[1] + replay[2], 4200.0, 1e-9);
      }
      const std::vector<double> mean = SummarizePermutations(*finals).mean;
      EXPECT_NEAR(mean[0] + mean[1] + mean[2], 4200.0, 1e-9);
    }
  }
}

TEST(PermutedEloTest, RejectsNoPermutations) {
  EXPECT_THAT(PermutedElo(VoteSet(), {.permutations = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings
