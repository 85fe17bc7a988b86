// PairOutcomeTally (docs/MODELS.md §5.5). Expected counts by hand.
#include "ratings/batch/pair_outcomes.h"

#include <vector>

#include "gtest/gtest.h"

namespace ratings {
namespace {

// Votes: 0 beats 1; 1 beats 0 (weight 2); 0 and 1 tie; 2 first with 0 and 1 tied second.
VoteSet Votes() {
  VoteSet votes;
  const std::vector<AgentId> ab = {0, 1}, three = {2, 0, 1};
  const std::vector<uint32_t> first = {1, 2}, second = {2, 1}, level = {1, 1}, top = {1, 2, 2};
  votes.Add({ab, first, 1.0});
  votes.Add({ab, second, 2.0});
  votes.Add({ab, level, 1.0});
  votes.Add({three, top, 1.0});
  return votes;
}

void ExpectPair(const PairOutcomes& p, AgentId a, AgentId b, double a_wins, double b_wins,
                double ties) {
  EXPECT_EQ(p.a, a);
  EXPECT_EQ(p.b, b);
  EXPECT_EQ(p.a_wins, a_wins);
  EXPECT_EQ(p.b_wins, b_wins);
  EXPECT_EQ(p.ties, ties);
}

TEST(PairOutcomeTallyTest, CountsWinsLossesAndTiesByWeight) {
  const std::vector<PairOutcomes> pairs = PairOutcomeTally(Votes()).Tally();
  ASSERT_EQ(pairs.size(), 3u);
  ExpectPair(pairs[0], 0, 1, 1, 2, 2);  // the 3-agent vote ties 0 and 1 as well
  ExpectPair(pairs[1], 0, 2, 0, 1, 0);
  ExpectPair(pairs[2], 1, 2, 0, 1, 0);
}

TEST(PairOutcomeTallyTest, MultiplicitiesScaleEachVote) {
  const std::vector<uint32_t> times = {0, 1, 3, 2};
  const std::vector<PairOutcomes> pairs = PairOutcomeTally(Votes()).Tally(times);
  ASSERT_EQ(pairs.size(), 3u);
  ExpectPair(pairs[0], 0, 1, 0, 2, 3 + 2);
  ExpectPair(pairs[1], 0, 2, 0, 2, 0);
  ExpectPair(pairs[2], 1, 2, 0, 2, 0);
}

}  // namespace
}  // namespace ratings
