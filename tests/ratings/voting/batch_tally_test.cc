#include "ratings/voting/batch_tally.h"

#include <random>
#include <tuple>
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
VoteSet RandomProfile(size_t agents, size_t votes, uint32_t seed) {
  std::mt19937 rng(seed);
  VoteSet profile(agents);
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
double CountN(const VoteSet& profile, AgentId a, AgentId b) {
  double n = 0.0;
  for (size_t v = 0; v < profile.size(); ++v) {
    const IndexedResult vote = profile.BestFirst(v);
    const auto agents = vote.agents;
    const auto groups = vote.ranks;
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
  const VoteSet profile = RandomProfile(9, 60, 7);
  const BatchTally dense = BatchTally::FromVotes(profile);
  const BatchTally sparse = BatchTally::FromVotes(profile, {.dense_max_agents = 4});
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
  VoteSet profile(4);
  AddWeakOrder(profile, {{0}, {1}});       // 0 > 1
  AddWeakOrder(profile, {{2, 3}});         // tie: no information
  AddWeakOrder(profile, {{1}, {0}}, 2.5);  // 1 > 0, weight 2.5
  for (const BatchTally& tally :
       {BatchTally::FromVotes(profile), BatchTally::FromVotes(profile, {.dense_max_agents = 0})}) {
    const std::vector<PairCount> pairs = tally.Pairs();
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].a, 0u);
    EXPECT_EQ(pairs[0].b, 1u);
    EXPECT_EQ(pairs[0].n_ab, 1.0);
    EXPECT_EQ(pairs[0].n_ba, 2.5);
    EXPECT_EQ(tally.Margin(1, 0), 1.5);
  }
}

// N is a sum over votes in vote order, one term per pair and vote, so reading each vote as
// given or best first gives the same bits.
TEST(BatchTallyTest, StandingOrderDoesNotChangeTheCounts) {
  const VoteSet profile = RandomProfile(9, 60, 11);
  for (const size_t dense_max_agents : {size_t{4096}, size_t{0}}) {
    BatchTally as_given(profile.num_agents(), {.dense_max_agents = dense_max_agents});
    BatchTally best_first(profile.num_agents(), {.dense_max_agents = dense_max_agents});
    for (size_t v = 0; v < profile.size(); ++v) {
      as_given.Add(profile[v]);
      best_first.Add(profile.BestFirst(v));
    }
    for (AgentId a = 0; a < 9; ++a) {
      for (AgentId b = 0; b < 9; ++b) EXPECT_EQ(as_given.N(a, b), best_first.N(a, b));
    }
  }
}

// By hand: a>b>c, then b first with a and c tied second (ids a 0, b 1, c 2).
// (a,b): a above once, b above once; (a,c): a above once, tied once; (b,c): b above twice.
TEST(BatchTallyTest, TallyPairsByHand) {
  VoteSet votes;
  const std::vector<AgentId> abc = {0, 1, 2}, bac = {1, 0, 2};
  const std::vector<uint32_t> strict = {1, 2, 3}, tied = {1, 2, 2};
  votes.Add({abc, strict, 1.0});
  votes.Add({bac, tied, 1.0});
  const std::vector<PairCount> pairs = TallyPairs(votes);
  ASSERT_EQ(pairs.size(), 3u);
  auto as_tuple = [](const PairCount& p) { return std::tuple(p.a, p.b, p.n_ab, p.n_ba); };
  EXPECT_THAT((std::vector{as_tuple(pairs[0]), as_tuple(pairs[1]), as_tuple(pairs[2])}),
              ::testing::ElementsAre(std::tuple(0u, 1u, 1.0, 1.0), std::tuple(0u, 2u, 1.0, 0.0),
                                     std::tuple(1u, 2u, 2.0, 0.0)));
}

TEST(BatchTallyTest, SparseTallyRefusesTheDenseMatrixNamingTheLimit) {
  const BatchTally tally(10, {.dense_max_agents = 5});
  EXPECT_THAT(tally.MarginMatrix(),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("limit of 5 agents")));
}

}  // namespace
}  // namespace ratings::voting
