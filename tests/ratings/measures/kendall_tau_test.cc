#include "ratings/measures/kendall_tau.h"

#include <algorithm>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

// Hand-counted discordant pairs.
TEST(KendallTauTest, SmallExamplesByHand) {
  const std::vector<AgentId> abc = {0, 1, 2};
  EXPECT_EQ(*KendallTauDistance(abc, abc), 0);
  EXPECT_EQ(*KendallTauDistance(std::vector<AgentId>{0, 2, 1}, abc), 1);  // (1,2)
  EXPECT_EQ(*KendallTauDistance(std::vector<AgentId>{2, 0, 1}, abc), 2);  // (0,2), (1,2)
  EXPECT_EQ(*KendallTauDistance(std::vector<AgentId>{2, 1, 0}, abc), 3);  // all three
  // Def. 2: 2 K_d / (n (n - 1)).
  EXPECT_DOUBLE_EQ(*NormalisedKendallTau(std::vector<AgentId>{0, 2, 1}, abc), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*NormalisedKendallTau(std::vector<AgentId>{2, 1, 0}, abc), 1.0);
}

// Def. 1 subset form: only the pairs of S1 count. S1 = {3, 0} ordered 3 > 0 inside
// S2 = 0 > 1 > 2 > 3: the one pair is reversed, K_d = 1, K_n = 2 * 1 / (2 * 1) = 1.
// S1 = {1, 3, 0} as 1 > 3 > 0: pairs (1,3) agree, (1,0) and (3,0) disagree: 2, K_n 2/3.
TEST(KendallTauTest, SubsetFormOfDefinitionOne) {
  const std::vector<AgentId> s2 = {0, 1, 2, 3};
  EXPECT_EQ(*KendallTauDistance(std::vector<AgentId>{3, 0}, s2), 1);
  EXPECT_DOUBLE_EQ(*NormalisedKendallTau(std::vector<AgentId>{3, 0}, s2), 1.0);
  EXPECT_EQ(*KendallTauDistance(std::vector<AgentId>{1, 3, 0}, s2), 2);
  EXPECT_DOUBLE_EQ(*NormalisedKendallTau(std::vector<AgentId>{1, 3, 0}, s2), 2.0 / 3);
  EXPECT_DOUBLE_EQ(*NormalisedKendallTau(std::vector<AgentId>{3}, s2), 0.0);
}

// The O(n log n) count against the O(n^2) definition on random permutations.
TEST(KendallTauTest, MatchesBruteForceOnRandomPermutations) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<AgentId> x(150), y(150);
    for (AgentId i = 0; i < 150; ++i) x[i] = y[i] = i;
    std::shuffle(x.begin(), x.end(), rng);
    std::shuffle(y.begin(), y.end(), rng);
    const size_t m = 10 + trial * 7;  // a prefix of x as the subset
    std::vector<size_t> pos(150);
    for (size_t i = 0; i < y.size(); ++i) pos[y[i]] = i;
    int64_t brute = 0;
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = i + 1; j < m; ++j) brute += pos[x[i]] > pos[x[j]];
    }
    EXPECT_EQ(*KendallTauDistance(absl::MakeConstSpan(x).first(m), y), brute);
  }
}

TEST(KendallTauTest, RejectsMissingAndRepeatedAgents) {
  const std::vector<AgentId> s2 = {0, 1, 2};
  EXPECT_THAT(KendallTauDistance(std::vector<AgentId>{0, 7}, s2).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("missing")));
  EXPECT_THAT(KendallTauDistance(std::vector<AgentId>{0, 0}, s2).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("twice")));
  EXPECT_THAT(KendallTauDistance(s2, std::vector<AgentId>{0, 1, 1, 2}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("twice")));
}

// A result with ties: tied pairs are never discordant. Vote 0 > {1, 2} > 3 against the
// ranking 3 > 2 > 1 > 0: strict pairs (0,1) (0,2) (0,3) (1,3) (2,3) are all reversed: 5.
TEST(KendallTauTest, VoteDistanceIgnoresTies) {
  const std::vector<AgentId> agents = {0, 1, 2, 3};
  const std::vector<uint32_t> ranks = {1, 2, 2, 4};
  const std::vector<uint32_t> position = Positions(std::vector<AgentId>{3, 2, 1, 0}, 4);
  EXPECT_EQ(*VoteKendallTau({agents, ranks, 1.0}, position), 5);
  const std::vector<uint32_t> same = Positions(std::vector<AgentId>{0, 2, 1, 3}, 4);
  EXPECT_EQ(*VoteKendallTau({agents, ranks, 1.0}, same), 0);
  const std::vector<uint32_t> partial = Positions(std::vector<AgentId>{0, 1}, 4);
  EXPECT_THAT(VoteKendallTau({agents, ranks, 1.0}, partial).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not in the ranking")));
}

}  // namespace
}  // namespace ratings
