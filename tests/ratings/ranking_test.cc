#include "ratings/ranking.h"

#include <vector>

#include "gtest/gtest.h"

namespace ratings {
namespace {

AgentIndex Index(std::vector<std::string> names) {
  AgentIndex index;
  for (const auto& n : names) index.Intern(n);
  return index;
}

TEST(RankingTest, RatingDescendingThenAgentIdAscending) {
  const AgentIndex index = Index({"d", "b", "c", "a"});
  const std::vector<double> rating = {1.0, 2.0, 2.0, 0.5};
  const std::vector<RankedAgent> ranked = RankByRating(rating, index);
  ASSERT_EQ(ranked.size(), 4u);
  // b and c tie on 2.0: b first by id; ranks are still 1..n.
  EXPECT_EQ(index.Name(ranked[0].id), "b");
  EXPECT_EQ(index.Name(ranked[1].id), "c");
  EXPECT_EQ(index.Name(ranked[2].id), "d");
  EXPECT_EQ(index.Name(ranked[3].id), "a");
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(ranked[i].rank, i + 1);
  EXPECT_EQ(ranked[0].rating, 2.0);
}

TEST(RankingTest, LotteryOrdersByProbabilityFirst) {
  const AgentIndex index = Index({"x", "y", "z"});
  const std::vector<double> probability = {0.0, 0.5, 0.5};
  const std::vector<double> rating = {0.9, -0.1, 0.0};
  const std::vector<RankedAgent> ranked = RankByProbabilityThenRating(probability, rating, index);
  EXPECT_EQ(index.Name(ranked[0].id), "z");  // same probability as y, higher rating
  EXPECT_EQ(index.Name(ranked[1].id), "y");
  EXPECT_EQ(index.Name(ranked[2].id), "x");  // highest rating, but outside the support
  EXPECT_EQ(ranked[2].rating, 0.9);
}

}  // namespace
}  // namespace ratings
