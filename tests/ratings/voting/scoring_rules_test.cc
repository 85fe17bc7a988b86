// Positional rules and STV on small profiles worked by hand, including ties and
// incomplete votes (the conventions stated in scoring_rules.h and stv.h).
#include "ratings/voting/scoring_rules.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/stv.h"
#include "tests/ratings/voting/profiles.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;
using ratings::testing::StatusIs;
using testing::AddWeakOrder;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr AgentId kA = 0, kB = 1, kC = 2, kD = 3;

// One vote {A, B} > C over four agents (D unranked), weight 2.
VoteSet TiedTop() {
  VoteSet profile(4);
  AddWeakOrder(profile, {{kA, kB}, {kC}}, 2.0);
  return profile;
}

TEST(ScoringRulesTest, ApprovalSharesTheCutAcrossATie) {
  // k = 1: positions {0, 1} hold A and B, one of them approved: 1/2 each, times 2.
  EXPECT_THAT(ApprovalScores(TiedTop(), 1), ElementsAre(1, 1, 0, 0));
  EXPECT_THAT(ApprovalScores(TiedTop(), 2), ElementsAre(2, 2, 0, 0));
  // k beyond the vote's length approves all it ranks, never the unranked D.
  EXPECT_THAT(ApprovalScores(TiedTop(), 5), ElementsAre(2, 2, 2, 0));
}

TEST(ScoringRulesTest, PluralitySplitsATopTie) {
  EXPECT_THAT(PluralityScores(TiedTop()), ElementsAre(1, 1, 0, 0));
}

TEST(ScoringRulesTest, BordaCountsWithinTheVoteAndHalvesTies) {
  // Positions 0, 1, 2 of a 3-agent vote earn 2, 1, 0; A and B share 2 + 1: 1.5 each.
  EXPECT_THAT(BordaScores(TiedTop()), ElementsAre(3, 3, 0, 0));
  // A 2-agent vote A > D adds 1 to A only (its own length, not the 4 agents).
  VoteSet profile = TiedTop();
  AddWeakOrder(profile, {{kA}, {kD}});
  EXPECT_THAT(BordaScores(profile), ElementsAre(4, 3, 0, 0));
}

// On complete strict votes Borda is the row sum of N (each agent below earns a point), and
// plurality / approval(k) count first / top-k places — recounted here from the orders.
TEST(ScoringRulesTest, CompleteStrictVotesMatchDirectCounts) {
  std::mt19937 rng(4);
  const size_t m = 7;
  std::vector<std::pair<double, std::vector<AgentId>>> votes;
  std::vector<AgentId> order(m);
  std::iota(order.begin(), order.end(), AgentId{0});
  for (int v = 0; v < 40; ++v) {
    std::shuffle(order.begin(), order.end(), rng);
    votes.push_back({1.0 + v % 3, order});
  }
  const VoteSet profile = testing::StrictProfile(m, votes);
  const Eigen::MatrixXd n = *BatchTally::FromVotes(profile).PreferenceMatrix();
  std::vector<double> first(m, 0.0), top3(m, 0.0);
  for (const auto& [w, o] : votes) {
    first[o[0]] += w;
    for (size_t i = 0; i < 3; ++i) top3[o[i]] += w;
  }
  const std::vector<double> borda = BordaScores(profile);
  for (AgentId a = 0; a < m; ++a) EXPECT_EQ(borda[a], n.row(a).sum());
  EXPECT_EQ(PluralityScores(profile), first);
  EXPECT_EQ(ApprovalScores(profile, 3), top3);
}

// By hand: 4 agents, k = 2, n = 9, quota floor(9/3) + 1 = 4.
// Votes 4: A>B>C, 2: B>C, 1: C>D, 2: D>C.
// Round 1: A 4, B 2, C 1, D 2 -> A elected with 4 (surplus 0: its votes are spent).
// Round 2: B 2, C 1, D 2 -> C out with 1; its vote goes to D.
// Round 3: B 2, D 3 -> B out with 2 (its votes B>C are exhausted: C is out).
// Round 4: D alone for the last seat -> elected with 3.
// Order A, D, B, C; scores A 2*4 - 0 + .4, D 8 - 1 + .3, B 4 - 0 + .2, C 4 - 1 + .1.
TEST(StvTest, TwoSeatsWithExhaustedVotes) {
  const VoteSet profile =
      testing::StrictProfile(4, {{4, {kA, kB, kC}}, {2, {kB, kC}}, {1, {kC, kD}}, {2, {kD, kC}}});
  const absl::StatusOr<StvOutcome> stv = Stv(profile, {.winners = 2}, IdentityPriority(4));
  ASSERT_THAT(stv, IsOk()) << stv.status();
  EXPECT_EQ(stv->quota, 4);
  EXPECT_THAT(stv->order.order, ElementsAre(kA, kD, kB, kC));
  EXPECT_THAT(stv->order.score, ElementsAre(DoubleNear(8.4, 1e-12), DoubleNear(4.2, 1e-12),
                                            DoubleNear(3.1, 1e-12), DoubleNear(7.3, 1e-12)));
}

// By hand: 3 agents, k = 2, n = 9, quota 4. Votes 5: A>B, 1: C, 3: B.
// Round 1: A 5 >= 4 elected; each A vote keeps (5 - 4)/5 of its value, so B gets 1.
// Round 2: B 3 + 1 = 4 >= 4 elected with 4 (whole-vote counting would give B only 3).
// Seats filled: C joins the losers with 1. Scores 6.5, 5.4, 3.1.
TEST(StvTest, SurplusIsTransferredFractionally) {
  const VoteSet profile = testing::StrictProfile(3, {{5, {kA, kB}}, {1, {kC}}, {3, {kB}}});
  const absl::StatusOr<StvOutcome> stv = Stv(profile, {.winners = 2}, IdentityPriority(3));
  ASSERT_THAT(stv, IsOk());
  EXPECT_THAT(stv->order.order, ElementsAre(kA, kB, kC));
  EXPECT_THAT(stv->order.score,
              ElementsAre(DoubleNear(6.5, 1e-12), DoubleNear(5.4, 1e-12), DoubleNear(3.1, 1e-12)));
  EXPECT_THAT(stv->votes,
              ElementsAre(DoubleNear(5, 1e-12), DoubleNear(4, 1e-12), DoubleNear(1, 1e-12)));
}

TEST(StvTest, DefaultWinnersIsHalfTheAgentsAndTheVotesAreZeroPadded) {
  // 6 agents -> 3 winners. Votes: 12 votes so n = 12 has two digits: X / 100.
  std::vector<std::pair<double, std::vector<AgentId>>> votes = {
      {5, {0, 1}}, {4, {1, 0}}, {3, {2, 3}}};
  const VoteSet profile = testing::StrictProfile(6, votes);
  const absl::StatusOr<StvOutcome> stv = Stv(profile, {}, IdentityPriority(6));
  ASSERT_THAT(stv, IsOk());
  EXPECT_EQ(stv->winners, 3);
  // Quota floor(12/4) + 1 = 4: round 1 elects 0 (5 votes), keeping 1/5 of each 0 vote
  // for 1; round 2 elects 1 (4 + 1 = 5); round 3: agents 4 and 5 (no votes) are out
  // first (5 before 4: the later in priority goes first), then 3, ... Work by hand:
  // round 3: 2 has 3, 3 0, 4 0, 5 0; no quota; hopefuls 4 > 1 seat: eliminate 5 (0).
  // round 4: eliminate 4 (0). round 5: eliminate 3 (0). round 6: 2 is the last hopeful
  // for the last seat: elected with 3.
  EXPECT_THAT(stv->order.order, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(stv->order.score, ElementsAre(DoubleNear(12.05, 1e-12), DoubleNear(11.05, 1e-12),
                                            DoubleNear(10.03, 1e-12), DoubleNear(6, 1e-12),
                                            DoubleNear(5, 1e-12), DoubleNear(4, 1e-12)));
}

TEST(StvTest, RejectsAnOverflowingTotalWeight) {
  const VoteSet profile = testing::StrictProfile(2, {{1e308, {kA, kB}}, {1e308, {kB, kA}}});
  EXPECT_THAT(Stv(profile, {}, IdentityPriority(2)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not finite")));
}

TEST(StvTest, RejectsMoreWinnersThanAgents) {
  EXPECT_THAT(Stv(testing::Pentathlon(), {.winners = 4}, IdentityPriority(3)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("winners: 4")));
}

}  // namespace
}  // namespace ratings::voting
