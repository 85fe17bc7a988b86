#include "ratings/ranking.h"

#include <string>
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

// With a tolerance (docs/MODELS.md §9): sorted by rating, the run within the tolerance of its
// first is one tie group, ordered by name. By hand, tolerance 1e-9: {3, 3 - 1e-12} is one
// group (d, b by name); 2 starts the next; {1 + 5e-10, 1, 1 - 4e-10} is one group (each
// within 1e-9 of the first, 1 + 5e-10), ordered a, c, e.
TEST(RankingTest, RatingsWithinTheToleranceTieByName) {
  const AgentIndex index = Index({"e", "d", "c", "b", "a", "f"});
  const std::vector<double> rating = {1 - 4e-10, 3, 1, 3 - 1e-12, 1 + 5e-10, 2};
  std::vector<std::string> order;
  for (const RankedAgent& r : RankByRating(rating, index, 1e-9)) order.push_back(index.Name(r.id));
  EXPECT_EQ(order, (std::vector<std::string>{"b", "d", "f", "a", "c", "e"}));
  // Without the tolerance the noise decides: d (3) before b (3 - 1e-12).
  order.clear();
  for (const RankedAgent& r : RankByRating(rating, index)) order.push_back(index.Name(r.id));
  EXPECT_EQ(order, (std::vector<std::string>{"d", "b", "f", "a", "c", "e"}));
}

// Groups are cut from the best of each group, not chained: 0, -0.6e-9, -1.2e-9 with
// tolerance 1e-9 make {0, -0.6e-9} and {-1.2e-9}, even though each step is below 1e-9.
TEST(RankingTest, ToleranceGroupsStartAtTheirBest) {
  const AgentIndex index = Index({"z", "y", "x"});
  const std::vector<double> rating = {0.0, -0.6e-9, -1.2e-9};
  std::vector<std::string> order;
  for (const RankedAgent& r : RankByRating(rating, index, 1e-9)) order.push_back(index.Name(r.id));
  EXPECT_EQ(order, (std::vector<std::string>{"y", "z", "x"}));
}

// Lotteries: probabilities within the tolerance tie, then ratings within it, then names.
// y and z: probability 0.5 and 0.5 - 1e-13 tie; ratings 0 and 1e-13 tie: by name y, z.
// w: same probability group, rating -0.25: after them. x outside the support last.
TEST(RankingTest, LotteryTiesWithinTheTolerance) {
  const AgentIndex index = Index({"x", "z", "y", "w"});
  const std::vector<double> probability = {0.0, 0.5 - 1e-13, 0.5, 0.5};
  const std::vector<double> rating = {0.9, 1e-13, 0.0, -0.25};
  std::vector<std::string> order;
  for (const RankedAgent& r : RankByProbabilityThenRating(probability, rating, index, 1e-9)) {
    order.push_back(index.Name(r.id));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"y", "z", "w", "x"}));
}

}  // namespace
}  // namespace ratings
