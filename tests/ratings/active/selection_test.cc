#include "ratings/active/selection.h"

#include <random>
#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace ratings::active {
namespace {

// §4.2: the first n·m rounds visit every (task, agent) cell once, the partner another agent.
TEST(BurnInTest, VisitsEveryCellOnceWithADistinctPartner) {
  const size_t tasks = 5, agents = 4;
  BurnIn burn_in(tasks, agents);
  std::mt19937_64 rng(3);
  std::set<std::pair<TaskId, AgentId>> cells;
  for (int64_t t = 1; t <= static_cast<int64_t>(tasks * agents); ++t) {
    ASSERT_TRUE(burn_in.Active(t));
    const Query q = burn_in.Next(t, rng);
    EXPECT_LT(q.task, tasks);
    EXPECT_LT(q.a, agents);
    EXPECT_LT(q.b, agents);
    EXPECT_NE(q.a, q.b);
    EXPECT_TRUE(cells.insert({q.task, q.a}).second) << "cell visited twice at round " << t;
  }
  EXPECT_EQ(cells.size(), tasks * agents);
  EXPECT_FALSE(burn_in.Active(static_cast<int64_t>(tasks * agents) + 1));
}

TEST(SelectionTest, MixUniformByHand) {
  // ε = 0.1 over 4 agents: 0.025 + 0.9 σ.
  const std::vector<double> mixed = MixUniform({1.0, 0.0, 0.0, 0.0}, 0.1);
  EXPECT_DOUBLE_EQ(mixed[0], 0.925);
  EXPECT_DOUBLE_EQ(mixed[1], 0.025);
  EXPECT_DOUBLE_EQ(mixed[3], 0.025);
}

TEST(SelectionTest, UniformPairIsDistinctAndCoversEveryOrderedPair) {
  std::mt19937_64 rng(11);
  std::set<std::pair<AgentId, AgentId>> seen;
  for (int i = 0; i < 2000; ++i) {
    const auto [a, b] = UniformPair(4, rng);
    ASSERT_NE(a, b);
    seen.insert({a, b});
  }
  EXPECT_EQ(seen.size(), 12u);  // 4 · 3 ordered pairs
}

// a ~ p, b ~ p redrawn until b != a: P(a, b) = p(a) p(b) / (1 - p(a)). 200,000 draws; the
// tolerance is 5 standard errors of a frequency near these probabilities (< 0.006).
TEST(SelectionTest, DistinctPairFromFollowsTheRedrawDistribution) {
  const std::vector<double> p = {0.5, 0.3, 0.2};
  std::mt19937_64 rng(5);
  const int draws = 200000;
  std::vector<std::vector<int>> count(3, std::vector<int>(3, 0));
  for (int i = 0; i < draws; ++i) {
    const auto [a, b] = DistinctPairFrom(p, rng);
    ASSERT_NE(a, b);
    ++count[a][b];
  }
  for (AgentId a = 0; a < 3; ++a) {
    for (AgentId b = 0; b < 3; ++b) {
      if (a == b) continue;
      const double expected = p[a] * p[b] / (1 - p[a]);
      EXPECT_NEAR(count[a][b] / double(draws), expected, 0.006) << a << "," << b;
    }
  }
}

}  // namespace
}  // namespace ratings::active
