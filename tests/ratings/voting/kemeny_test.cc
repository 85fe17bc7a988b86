// Exact Kemeny–Young against brute force over all permutations on random profiles.
#include "ratings/voting/kemeny.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/voting/batch_tally.h"
#include "tests/ratings/voting/profiles.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;
using ratings::testing::StatusIs;
using ::testing::HasSubstr;

// KEMENYVALUE of an order: sum of N(x, y) over x above y.
double Value(const Eigen::MatrixXd& n, const std::vector<AgentId>& order) {
  double v = 0.0;
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t j = i + 1; j < order.size(); ++j) v += n(order[i], order[j]);
  }
  return v;
}

Eigen::MatrixXd RandomPreferences(int agents, int votes, std::mt19937& rng) {
  VoteSet profile(static_cast<size_t>(agents));
  std::vector<AgentId> all(static_cast<size_t>(agents));
  std::iota(all.begin(), all.end(), AgentId{0});
  for (int v = 0; v < votes; ++v) {
    std::shuffle(all.begin(), all.end(), rng);
    const size_t k = 2 + rng() % static_cast<size_t>(agents - 1);  // incomplete votes
    testing::WeakOrder order;
    for (size_t i = 0; i < k; ++i) {
      if (order.empty() || rng() % 4 != 0) order.emplace_back();  // some ties
      order.back().push_back(all[i]);
    }
    testing::AddWeakOrder(profile, order, 1.0 + static_cast<double>(rng() % 2));
  }
  return *BatchTally::FromVotes(profile).PreferenceMatrix();
}

// Brute force over all orders of n's agents in lexicographic order: the best value and
// the first order reaching it, which the tie-break (identity priority, position by
// position) must pick.
struct BruteForce {
  double best = -1.0;
  std::vector<AgentId> first_best;
};
BruteForce FirstBestOrder(const Eigen::MatrixXd& n) {
  std::vector<AgentId> perm(static_cast<size_t>(n.rows()));
  std::iota(perm.begin(), perm.end(), AgentId{0});
  BruteForce out;
  do {
    const double v = Value(n, perm);
    if (v > out.best + 1e-9) {
      out.best = v;
      out.first_best = perm;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

TEST(KemenyTest, MatchesBruteForceOnRandomProfiles) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 80; ++trial) {
    const int m = 2 + trial % 6;  // 2..7 agents
    const Eigen::MatrixXd n = RandomPreferences(m, 3 + trial % 9, rng);
    const std::vector<uint32_t> priority = IdentityPriority(static_cast<size_t>(m));
    const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {}, priority);
    ASSERT_THAT(kemeny, IsOk()) << kemeny.status();
    const auto [best, first_best] = FirstBestOrder(n);
    EXPECT_DOUBLE_EQ(kemeny->value, best);
    EXPECT_EQ(kemeny->order.order, first_best) << n;
    for (size_t i = 0; i < first_best.size(); ++i) {
      double below = 0.0;
      for (size_t j = i + 1; j < first_best.size(); ++j) below += n(first_best[i], first_best[j]);
      EXPECT_DOUBLE_EQ(kemeny->order.score[first_best[i]], below);
    }
  }
}

// Nine agents in three majority-cycle blocks (ids shuffled), every agent of a block beating
// every agent of the later blocks: the split into components agrees with brute force
// over all 9! orders, including with a limit of 3 agents (the largest block).
TEST(KemenyTest, ComponentsAgreeWithBruteForceOverAllOrders) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<AgentId> ids(9);
    std::iota(ids.begin(), ids.end(), AgentId{0});
    std::shuffle(ids.begin(), ids.end(), rng);
    Eigen::MatrixXd n = Eigen::MatrixXd::Zero(9, 9);
    for (int i = 0; i < 9; ++i) {
      for (int j = 0; j < 9; ++j) {
        if (i == j) continue;
        if (i / 3 == j / 3) {
          n(ids[i], ids[j]) = static_cast<double>(rng() % 10);  // cycles within a block
        } else if (i / 3 < j / 3) {
          n(ids[i], ids[j]) = 6 + static_cast<double>(rng() % 5);  // strict majority
          n(ids[j], ids[i]) = static_cast<double>(rng() % 6);
        }
      }
    }
    const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {.max_agents = 3}, IdentityPriority(9));
    ASSERT_THAT(kemeny, IsOk()) << kemeny.status();
    const auto [best, first_best] = FirstBestOrder(n);
    EXPECT_EQ(kemeny->value, best);
    EXPECT_EQ(kemeny->order.order, first_best) << n;
  }
}

TEST(KemenyTest, RefusesAboveItsLimitWithTheReason) {
  const Eigen::MatrixXd n = Eigen::MatrixXd::Zero(6, 6);
  EXPECT_THAT(Kemeny(n, {.max_agents = 5}, IdentityPriority(6)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("6 agents is above the exact solver's limit of 5")));
  EXPECT_THAT(Kemeny(n, {.max_agents = 26}, IdentityPriority(6)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_agents: 26")));
}

TEST(KemenyTest, SolvesTwelveAgents) {
  // A planted order 0 > 1 > ... > 11 with unanimous votes: it is the unique optimum.
  Eigen::MatrixXd n = Eigen::MatrixXd::Zero(12, 12);
  for (int i = 0; i < 12; ++i) {
    for (int j = i + 1; j < 12; ++j) n(i, j) = 3;
  }
  const std::vector<uint32_t> reversed = {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {}, reversed);
  ASSERT_THAT(kemeny, IsOk());
  std::vector<AgentId> expected(12);
  std::iota(expected.begin(), expected.end(), AgentId{0});
  EXPECT_EQ(kemeny->order.order, expected);
  EXPECT_EQ(kemeny->value, 3 * 66);
}

}  // namespace
}  // namespace ratings::voting
