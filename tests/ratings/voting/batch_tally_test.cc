#include "ratings/voting/batch_tally.h"

#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ratings/voting/profiles.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ratings::testing::StatusIs;
using testing::AddWeakOrder;
using ::testing::HasSubstr;

// Random weak orders over random subsets (incomplete votes with ties), weights 1..3.
Profile RandomProfile(size_t agents, size_t votes, uint32_t seed) {
  std::mt19937 rng(seed);
  Profile profile(agents);
  std::vector<AgentId> all(agents);
  for (size_t a = 0; a < agents; ++a) all[a] = static_cast<AgentId>(a);
  for (size_t v = 0; v < votes; ++v) {
    std::shuffle(all.begin(), all.end(), rng);
    const size_t k = 2 + rng() % (agents - 1);
    testing::WeakOrder order;
    for (size_t i = 0; i < k; ++i) {
      if (order.empty() || rng() % 3 != 0) order.emplace_back();
      order.back().push_back(all[i]);
    }
    AddWeakOrder(profile, order, 1.0 + static_cast<double>(rng() % 3));
  }
  return profile;
}

// Independent count: N(a, b) straight from the votes' groups.
double CountN(const Profile& profile, AgentId a, AgentId b) {
  double n = 0.0;
  for (size_t v = 0; v < profile.votes(); ++v) {
    const auto agents = profile.Agents(v);
    const auto groups = profile.Groups(v);
    int ga = -1, gb = -1;
    for (size_t i = 0; i < agents.size(); ++i) {
      if (agents[i] == a) ga = static_cast<int>(groups[i]);
      if (agents[i] == b) gb = static_cast<int>(groups[i]);
    }
    if (ga >= 0 && gb >= 0 && ga < gb) n += profile.Weight(v);
  }
  return n;
}

TEST(BatchTallyTest, DenseAndSparseAgreeWithADirectCount) {
  const Profile profile = RandomProfile(9, 60, 7);
  const BatchTally dense = BatchTally::FromProfile(profile);
  const BatchTally sparse = BatchTally::FromProfile(profile, {.dense_max_agents = 4});
  ASSERT_TRUE(dense.dense());
  ASSERT_FALSE(sparse.dense());
  for (AgentId a = 0; a < 9; ++a) {
    for (AgentId b = 0; b < 9; ++b) {
      EXPECT_EQ(dense.N(a, b), CountN(profile, a, b));
      EXPECT_EQ(sparse.N(a, b), CountN(profile, a, b));
    }
  }
  const std::vector<PairCount> dp = dense.Pairs(), sp = sparse.Pairs();
  ASSERT_EQ(dp.size(), sp.size());
  for (size_t i = 0; i < dp.size(); ++i) {
    EXPECT_EQ(dp[i].a, sp[i].a);
    EXPECT_EQ(dp[i].b, sp[i].b);
    EXPECT_EQ(dp[i].n_ab, sp[i].n_ab);
    EXPECT_EQ(dp[i].n_ba, sp[i].n_ba);
    EXPECT_LT(dp[i].a, dp[i].b);
    if (i > 0) {
      EXPECT_TRUE(dp[i - 1].a < dp[i].a || (dp[i - 1].a == dp[i].a && dp[i - 1].b < dp[i].b));
    }
  }
}

TEST(BatchTallyTest, PairsListOnlyPairsWithAStrictPreference) {
  Profile profile(4);
  AddWeakOrder(profile, {{0}, {1}});       // 0 > 1
  AddWeakOrder(profile, {{2, 3}});         // tie: no information
  AddWeakOrder(profile, {{1}, {0}}, 2.5);  // 1 > 0, weight 2.5
  for (const BatchTally& tally : {BatchTally::FromProfile(profile),
                                  BatchTally::FromProfile(profile, {.dense_max_agents = 0})}) {
    const std::vector<PairCount> pairs = tally.Pairs();
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].a, 0u);
    EXPECT_EQ(pairs[0].b, 1u);
    EXPECT_EQ(pairs[0].n_ab, 1.0);
    EXPECT_EQ(pairs[0].n_ba, 2.5);
    EXPECT_EQ(tally.Margin(1, 0), 1.5);
  }
}

TEST(BatchTallyTest, SparseTallyRefusesTheDenseMatrixNamingTheLimit) {
  const BatchTally tally(10, {.dense_max_agents = 5});
  EXPECT_THAT(tally.MarginMatrix(),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("limit of 5 agents")));
}

}  // namespace
}  // namespace ratings::voting
