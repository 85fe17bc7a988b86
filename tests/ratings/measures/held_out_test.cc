#include "ratings/measures/held_out.h"

#include <algorithm>
#include <set>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/measures/kendall_tau.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::StatusIs;

// 60 two-player results over 12 agents, plus results whose agent 12..15 appears once.
VoteSet Profile() {
  VoteSet votes;
  const std::vector<uint32_t> ranks = {1, 2};
  for (AgentId i = 0; i < 60; ++i) {
    const std::vector<AgentId> agents = {i % 12, (i + 1 + i / 12) % 12};  // offset 1..5
    votes.Add({agents, ranks, 1.0});
  }
  for (AgentId lonely = 12; lonely < 16; ++lonely) {
    const std::vector<AgentId> agents = {lonely, 0};
    votes.Add({agents, ranks, 1.0});
  }
  return votes;
}

// SCO §4.4: disjoint train and test, every test agent seen in training.
TEST(HeldOutTest, SplitsAreDisjointAndTestAgentsAreSeenInTraining) {
  const VoteSet votes = Profile();
  std::mt19937_64 rng(1);
  for (int s = 0; s < 50; ++s) {
    const TrainTestSplit split = SplitTrainTest(votes, 20, rng);
    EXPECT_EQ(split.train.size() + split.test.size(), votes.size());
    EXPECT_LE(split.test.size(), 20u);
    std::set<size_t> all(split.train.begin(), split.train.end());
    all.insert(split.test.begin(), split.test.end());
    EXPECT_EQ(all.size(), votes.size());
    std::set<AgentId> trained;
    for (size_t r : split.train) {
      for (AgentId a : votes[r].agents) trained.insert(a);
    }
    for (size_t r : split.test) {
      for (AgentId a : votes[r].agents) EXPECT_TRUE(trained.contains(a)) << a;
      EXPECT_LT(r, 60u);  // a result with a once-seen agent can never be a test result
    }
  }
}

TEST(HeldOutTest, DeterministicForASeed) {
  const VoteSet votes = Profile();
  std::mt19937_64 a(3), b(3);
  EXPECT_EQ(SplitTrainTest(votes, 10, a).test, SplitTrainTest(votes, 10, b).test);
}

// KTD_test by hand: results 0>1 and 1>0 (agents 0, 1) against the ranking 0 > 1:
// distances 0 and 1, mean 1/2.
TEST(HeldOutTest, MeanVoteDistanceByHand) {
  VoteSet votes;
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> win = {1, 2}, loss = {2, 1};
  votes.Add({agents, win, 1.0});
  votes.Add({agents, loss, 1.0});
  const std::vector<uint32_t> position = Positions(std::vector<AgentId>{0, 1}, 2);
  const std::vector<size_t> both = {0, 1};
  EXPECT_DOUBLE_EQ(*MeanVoteKendallTau(votes, both, position), 0.5);
  EXPECT_THAT(MeanVoteKendallTau(votes, {}, position).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings
