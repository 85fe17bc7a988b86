// Properties every rule must keep on arbitrary input (random weak orders over random
// subsets, random weights): orders are permutations of all agents, scores are finite,
// lotteries are maximal distributions, IML levels partition the agents, and the
// order-producing rules agree with their own scores where the appendix says they must
// (STV's score decreases along its order; IML's order is its score's).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/copeland.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/schulze.h"
#include "ratings/voting/scoring_rules.h"
#include "ratings/voting/stv.h"
#include "tests/ratings/voting/profiles.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;

void ExpectPermutation(const std::vector<AgentId>& order, size_t m) {
  std::vector<AgentId> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<AgentId> all(m);
  std::iota(all.begin(), all.end(), AgentId{0});
  EXPECT_EQ(sorted, all);
}

void ExpectFinite(const std::vector<double>& v) {
  for (double x : v) EXPECT_TRUE(std::isfinite(x));
}

TEST(InvariantsTest, RandomProfiles) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> weight(0.1, 5.0);
  for (int trial = 0; trial < 150; ++trial) {
    const size_t m = 1 + static_cast<size_t>(trial % 12);
    VoteSet profile(m);
    std::vector<AgentId> all(m);
    std::iota(all.begin(), all.end(), AgentId{0});
    const int votes = static_cast<int>(rng() % 20);
    for (int v = 0; v < votes && m >= 2; ++v) {
      std::shuffle(all.begin(), all.end(), rng);
      const size_t k = 2 + rng() % (m - 1);
      testing::WeakOrder order;
      for (size_t i = 0; i < k; ++i) {
        if (order.empty() || rng() % 3 != 0) order.emplace_back();
        order.back().push_back(all[i]);
      }
      testing::AddWeakOrder(profile, order, weight(rng));
    }
    const std::vector<uint32_t> priority = IdentityPriority(m);
    const BatchTally tally = BatchTally::FromVotes(profile);
    const Eigen::MatrixXd n = *tally.PreferenceMatrix();
    const Eigen::MatrixXd margins = *tally.MarginMatrix();

    ExpectFinite(ApprovalScores(profile, 3));
    ExpectFinite(PluralityScores(profile));
    ExpectFinite(BordaScores(profile));
    ExpectFinite(CopelandScores(tally));

    const StvOutcome stv = *Stv(profile, {}, priority);
    ExpectPermutation(stv.order.order, m);
    for (size_t i = 1; i < stv.order.order.size(); ++i) {
      EXPECT_GT(stv.order.score[stv.order.order[i - 1]], stv.order.score[stv.order.order[i]]);
    }
    const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {}, priority);
    ASSERT_THAT(kemeny, IsOk());
    ExpectPermutation(kemeny->order.order, m);
    ExpectPermutation(Schulze(n, priority).order.order, m);
    ExpectPermutation(RankedPairs(margins, priority).order, m);

    const ExactLottery ml = *SolveMaximalLottery(margins);
    ASSERT_EQ(ml.lottery.size(), m);
    double total = 0.0;
    for (size_t a = 0; a < m; ++a) {
      EXPECT_GE(ml.lottery[a], 0.0);
      total += ml.lottery[a];
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_LT(ml.exploitability, 1e-9);

    const ImlOutcome iml = *IterativeMaximalLotteries(margins);
    std::set<AgentId> seen;
    for (size_t t = 0; t < iml.levels.size(); ++t) {
      ASSERT_FALSE(iml.levels[t].empty());
      for (const auto& [agent, p] : iml.levels[t]) {
        EXPECT_TRUE(seen.insert(agent).second);
        EXPECT_GT(p, 0.0);
        EXPECT_LE(p, 1.0);
        // Level t from the top sits in (L, L + 1] with L = levels - 1 - t.
        const double level = static_cast<double>(iml.levels.size() - 1 - t);
        EXPECT_GT(iml.score[agent], level);
        EXPECT_LE(iml.score[agent], level + 1.0);
      }
    }
    EXPECT_EQ(seen.size(), m);
  }
}

}  // namespace
}  // namespace ratings::voting
