#include "ratings/batch/vote_set.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename T>
std::vector<T> ToVector(absl::Span<const T> span) {
  return std::vector<T>(span.begin(), span.end());
}

TEST(VoteSetTest, EmptyHasNoVotesAndTheAgentsItIsGiven) {
  const VoteSet none;
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.num_agents(), 0u);
  EXPECT_EQ(none.TotalWeight(), 0.0);
  const VoteSet five(5);
  EXPECT_EQ(five.size(), 0u);
  EXPECT_EQ(five.num_agents(), 5u);
}

// Three votes by hand:
//   0: agents 4, 7, 2, 9 with ranks 3, 1, 3, 1, weight 2.5. Best first, ties in the order
//      given: rank 1 holds 7 then 9, rank 3 holds 4 then 2, so 7, 9, 4, 2 with dense
//      ranks (tie groups from 1) 1, 1, 2, 2.
//   1: agents 1, 0 with ranks 2, 1, weight 0.5: best first 0, 1; dense ranks 1, 2.
//   2: agents 3, 5, 6 with ranks 1, 3, 3 (the same as 1, 2, 2), weight 1: already best
//      first; dense ranks 1, 2, 2.
// Total weight 2.5 + 0.5 + 1 = 4; agents 0..9 (the largest id is 9).
TEST(VoteSetTest, KeepsEachVoteAsGivenAndBestFirstWithItsTieGroups) {
  VoteSet votes;
  const std::vector<AgentId> a0 = {4, 7, 2, 9}, a1 = {1, 0}, a2 = {3, 5, 6};
  const std::vector<uint32_t> r0 = {3, 1, 3, 1}, r1 = {2, 1}, r2 = {1, 3, 3};
  votes.Add({a0, r0, 2.5});
  votes.Add({a1, r1, 0.5});
  votes.Add({a2, r2, 1.0});
  ASSERT_EQ(votes.size(), 3u);
  EXPECT_EQ(votes.num_agents(), 10u);
  EXPECT_EQ(votes.TotalWeight(), 4.0);

  EXPECT_THAT(votes[0].agents, ElementsAre(4, 7, 2, 9));
  EXPECT_THAT(votes[0].ranks, ElementsAre(3, 1, 3, 1));
  EXPECT_EQ(votes[0].weight, 2.5);
  EXPECT_THAT(votes.BestFirst(0).agents, ElementsAre(7, 9, 4, 2));
  EXPECT_THAT(votes.BestFirst(0).ranks, ElementsAre(1, 1, 2, 2));
  EXPECT_EQ(votes.BestFirst(0).weight, 2.5);
  EXPECT_EQ(votes.Weight(0), 2.5);

  EXPECT_THAT(votes[1].agents, ElementsAre(1, 0));
  EXPECT_THAT(votes[1].ranks, ElementsAre(2, 1));
  EXPECT_THAT(votes.BestFirst(1).agents, ElementsAre(0, 1));
  EXPECT_THAT(votes.BestFirst(1).ranks, ElementsAre(1, 2));
  EXPECT_EQ(votes.Weight(1), 0.5);

  EXPECT_THAT(votes[2].agents, ElementsAre(3, 5, 6));
  EXPECT_THAT(votes[2].ranks, ElementsAre(1, 3, 3));
  EXPECT_THAT(votes.BestFirst(2).agents, ElementsAre(3, 5, 6));
  EXPECT_THAT(votes.BestFirst(2).ranks, ElementsAre(1, 2, 2));
  EXPECT_EQ(votes.Weight(2), 1.0);
}

// A vote tying everyone is one group; strictly reversed input is reversed.
TEST(VoteSetTest, AllTiedIsOneGroupAndReversedInputIsReversed) {
  VoteSet votes;
  const std::vector<AgentId> agents = {2, 0, 1};
  const std::vector<uint32_t> tied = {4, 4, 4}, reversed = {3, 2, 1};
  votes.Add({agents, tied, 1.0});
  votes.Add({agents, reversed, 1.0});
  EXPECT_THAT(votes.BestFirst(0).agents, ElementsAre(2, 0, 1));
  EXPECT_THAT(votes.BestFirst(0).ranks, ElementsAre(1, 1, 1));
  EXPECT_THAT(votes.BestFirst(1).agents, ElementsAre(1, 0, 2));
  EXPECT_THAT(votes.BestFirst(1).ranks, ElementsAre(1, 2, 3));
}

TEST(VoteSetTest, SetNumAgentsOnlyGrows) {
  VoteSet votes(3);
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 2};
  votes.Add({agents, ranks, 1.0});
  EXPECT_EQ(votes.num_agents(), 3u);
  votes.SetNumAgents(7);
  EXPECT_EQ(votes.num_agents(), 7u);
  votes.SetNumAgents(2);
  EXPECT_EQ(votes.num_agents(), 7u);
}

// Standings {b: 2, a: 1, c: 2}, weight 3: interned in standing order (b 0, a 1, c 2).
TEST(VoteSetTest, AddResultInternsInStandingOrder) {
  AgentIndex index;
  VoteSet votes;
  Result result;
  result.standings = {{"b", 2, {}}, {"a", 1, {}}, {"c", 2, {}}};
  result.weight = 3.0;
  ASSERT_THAT(votes.Add(result, index), IsOk());
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(index.Name(0), "b");
  EXPECT_EQ(index.Name(1), "a");
  EXPECT_EQ(index.Name(2), "c");
  ASSERT_EQ(votes.size(), 1u);
  EXPECT_EQ(votes.num_agents(), 3u);
  EXPECT_THAT(votes[0].agents, ElementsAre(0, 1, 2));
  EXPECT_THAT(votes[0].ranks, ElementsAre(2, 1, 2));
  EXPECT_THAT(votes.BestFirst(0).agents, ElementsAre(1, 0, 2));
  EXPECT_THAT(votes.BestFirst(0).ranks, ElementsAre(1, 2, 2));
  EXPECT_EQ(votes.Weight(0), 3.0);
}

TEST(VoteSetTest, AddResultRefusesAnInvalidResultAndChangesNothing) {
  AgentIndex index;
  VoteSet votes;
  Result bad;
  bad.standings = {{"a", 1, {}}, {"b", 0, {}}};
  EXPECT_THAT(votes.Add(bad, index),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "standings[1]: rank 0 for agent 'b'; ranks start at 1"));
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(votes.size(), 0u);
  EXPECT_EQ(votes.num_agents(), 0u);
  // The limits are the caller's.
  Result three;
  three.standings = {{"a", 1, {}}, {"b", 2, {}}, {"c", 3, {}}};
  EXPECT_THAT(votes.Add(three, index, {.max_standings = 2}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("too many standings")));
  EXPECT_THAT(votes.Add(three, index), IsOk());
  EXPECT_EQ(votes.size(), 1u);
}

// Votes given best first with dense ranks share the best-first view with the given one
// until a vote that is not arrives; every vote still reads as by hand:
//   0: agents 3, 1 with ranks 1, 2 (best first already);
//   1: agents 5, 0, 2 with ranks 1, 1, 2 (best first already, a tie on top);
//   2: agents 2, 4 with ranks 2, 1: best first 4, 2 with dense ranks 1, 2;
//   3: agents 0, 1 with ranks 1, 2 again.
TEST(VoteSetTest, BestFirstStaysRightWhenTheFirstUnsortedVoteArrives) {
  VoteSet votes;
  const std::vector<AgentId> a0 = {3, 1}, a1 = {5, 0, 2}, a2 = {2, 4}, a3 = {0, 1};
  const std::vector<uint32_t> r0 = {1, 2}, r1 = {1, 1, 2}, r2 = {2, 1}, r3 = {1, 2};
  votes.Add({a0, r0, 1.0});
  votes.Add({a1, r1, 1.0});
  EXPECT_THAT(ToVector(votes.BestFirst(1).agents), ElementsAre(5, 0, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(1).ranks), ElementsAre(1, 1, 2));
  votes.Add({a2, r2, 2.0});
  votes.Add({a3, r3, 1.0});
  ASSERT_EQ(votes.size(), 4u);
  EXPECT_THAT(ToVector(votes.BestFirst(0).agents), ElementsAre(3, 1));
  EXPECT_THAT(ToVector(votes.BestFirst(0).ranks), ElementsAre(1, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(1).agents), ElementsAre(5, 0, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(1).ranks), ElementsAre(1, 1, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(2).agents), ElementsAre(4, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(2).ranks), ElementsAre(1, 2));
  EXPECT_THAT(ToVector(votes[2].agents), ElementsAre(2, 4));
  EXPECT_THAT(ToVector(votes[2].ranks), ElementsAre(2, 1));
  EXPECT_THAT(ToVector(votes.BestFirst(3).agents), ElementsAre(0, 1));
  EXPECT_EQ(votes.BestFirst(2).weight, 2.0);
}

// Ranks 1, 3 skip a class, so the vote is not given with dense ranks: best first it reads
// 1, 2 (by hand), not the ranks given.
TEST(VoteSetTest, RanksThatSkipAClassAreNotShared) {
  VoteSet votes;
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 3};
  votes.Add({agents, ranks, 1.0});
  EXPECT_THAT(ToVector(votes[0].ranks), ElementsAre(1, 3));
  EXPECT_THAT(ToVector(votes.BestFirst(0).ranks), ElementsAre(1, 2));
}

// A set built from arrays in place reads back vote by vote as written (by hand: agents 2, 0
// with ranks 1, 2 and weight 1; agents 1, 3, 0 with ranks 1, 1, 2 and weight 0.5), best
// first as given, with the total weight 1.5 and the agent count it is given.
TEST(VoteSetTest, FromArraysReadsBackTheArrays) {
  VoteSet::Arrays arrays;
  arrays.offsets = {0, 2, 5};
  arrays.agents = {2, 0, 1, 3, 0};
  arrays.ranks = {1, 2, 1, 1, 2};
  arrays.weights = {1.0, 0.5};
  const VoteSet votes = VoteSet::FromArrays(std::move(arrays), 6);
  ASSERT_EQ(votes.size(), 2u);
  EXPECT_EQ(votes.num_agents(), 6u);
  EXPECT_EQ(votes.TotalWeight(), 1.5);
  EXPECT_THAT(ToVector(votes[0].agents), ElementsAre(2, 0));
  EXPECT_THAT(ToVector(votes[1].agents), ElementsAre(1, 3, 0));
  EXPECT_THAT(ToVector(votes[1].ranks), ElementsAre(1, 1, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(1).agents), ElementsAre(1, 3, 0));
  EXPECT_THAT(ToVector(votes.BestFirst(1).ranks), ElementsAre(1, 1, 2));
  EXPECT_EQ(votes.Weight(1), 0.5);
}

// With its own best-first arrays (by hand: agents 4, 1 with ranks 2, 1 are 1, 4 best first
// with dense ranks 1, 2), each view reads its arrays; a vote added after is sorted as Add
// sorts (agents 0, 2 with ranks 3, 1: best first 2, 0 with dense ranks 1, 2).
TEST(VoteSetTest, FromArraysKeepsItsOwnBestFirstArrays) {
  VoteSet::Arrays arrays;
  arrays.offsets = {0, 2};
  arrays.agents = {4, 1};
  arrays.ranks = {2, 1};
  arrays.weights = {1.0};
  arrays.best_first_agents = {1, 4};
  arrays.dense_ranks = {1, 2};
  VoteSet votes = VoteSet::FromArrays(std::move(arrays), 5);
  EXPECT_THAT(ToVector(votes[0].agents), ElementsAre(4, 1));
  EXPECT_THAT(ToVector(votes.BestFirst(0).agents), ElementsAre(1, 4));
  EXPECT_THAT(ToVector(votes.BestFirst(0).ranks), ElementsAre(1, 2));
  const std::vector<AgentId> agents = {0, 2};
  const std::vector<uint32_t> ranks = {3, 1};
  votes.Add({agents, ranks, 1.0});
  EXPECT_THAT(ToVector(votes.BestFirst(1).agents), ElementsAre(2, 0));
  EXPECT_THAT(ToVector(votes.BestFirst(1).ranks), ElementsAre(1, 2));
  EXPECT_THAT(ToVector(votes.BestFirst(0).agents), ElementsAre(1, 4));
}

// Weights of 1 take no room until another comes; every vote then keeps its own (by hand:
// 1, 1, 0.25, 1, total 3.25); a set from arrays without weights weighs 1 a vote.
TEST(VoteSetTest, UnitWeightsUntilAnotherArrives) {
  VoteSet votes;
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 2};
  for (const double w : {1.0, 1.0, 0.25, 1.0}) votes.Add({agents, ranks, w});
  ASSERT_EQ(votes.size(), 4u);
  EXPECT_EQ(votes.Weight(0), 1.0);
  EXPECT_EQ(votes.Weight(1), 1.0);
  EXPECT_EQ(votes.Weight(2), 0.25);
  EXPECT_EQ(votes[2].weight, 0.25);
  EXPECT_EQ(votes.BestFirst(2).weight, 0.25);
  EXPECT_EQ(votes.Weight(3), 1.0);
  EXPECT_EQ(votes.TotalWeight(), 3.25);

  VoteSet::Arrays arrays;
  arrays.offsets = {0, 2, 4, 6};
  arrays.agents = {0, 1, 1, 0, 0, 1};
  arrays.ranks = {1, 2, 1, 2, 1, 1};
  const VoteSet from_arrays = VoteSet::FromArrays(std::move(arrays), 2);
  ASSERT_EQ(from_arrays.size(), 3u);
  EXPECT_EQ(from_arrays.Weight(1), 1.0);
  EXPECT_EQ(from_arrays[2].weight, 1.0);
  EXPECT_EQ(from_arrays.TotalWeight(), 3.0);
}

}  // namespace
}  // namespace ratings
