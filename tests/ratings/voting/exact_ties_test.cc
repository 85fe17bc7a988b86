// Exact ties in every rule (docs/MODELS.md §9): profiles whose agents tie exactly in
// exact arithmetic but not in naive floating point, each worked by hand (the arithmetic is
// in the comments). Each case failed before the counts were made exact or the solver
// outputs compared within their tolerance: the noise put the agents in the other order.
#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/agent_index.h"
#include "ratings/io/read_results.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/ranking.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/scoring_rules.h"
#include "ratings/voting/stv.h"
#include "tests/ratings/voting/profiles.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;
using testing::AddWeakOrder;
using ::testing::DoubleNear;
using ::testing::ElementsAre;

// A PrefLib profile as ratingctl reads it: ids by first appearance, priority by name.
struct Election {
  AgentIndex index;
  VoteSet votes;
  std::vector<uint32_t> priority;
  std::vector<std::string> Names(const std::vector<AgentId>& order) const {
    std::vector<std::string> out;
    for (AgentId a : order) out.push_back(index.Name(a));
    return out;
  }
  std::vector<std::string> Names(const std::vector<RankedAgent>& ranked) const {
    std::vector<std::string> out;
    for (const RankedAgent& r : ranked) out.push_back(index.Name(r.id));
    return out;
  }
};

// The PrefLib header naming one alternative per character of `names`, 1..N in order.
std::string Alternatives(const std::string& names) {
  std::string out = "# NUMBER ALTERNATIVES: " + std::to_string(names.size()) + "\n";
  for (size_t i = 0; i < names.size(); ++i) {
    out += "# ALTERNATIVE NAME " + std::to_string(i + 1) + ": " + names[i] + "\n";
  }
  return out;
}

absl::StatusOr<Election> Read(const std::string& content, const std::string& name) {
  const absl::StatusOr<io::ReadOutput> read = io::ParsePreflib(content, name, {});
  if (!read.ok()) return read.status();
  Election e;
  absl::StatusOr<VoteSet> votes = io::ToVoteSet(read->records, name, e.index);
  if (!votes.ok()) return votes.status();
  e.votes = *std::move(votes);
  std::vector<AgentId> by_name(e.index.size());
  for (AgentId a = 0; a < by_name.size(); ++a) by_name[a] = a;
  std::sort(by_name.begin(), by_name.end(),
            [&](AgentId a, AgentId b) { return e.index.Name(a) < e.index.Name(b); });
  e.priority.resize(by_name.size());
  for (uint32_t r = 0; r < by_name.size(); ++r) e.priority[by_name[r]] = r;
  return e;
}

// Plurality: six votes {a, b, c} > e give a, b and c a third of a point each, 6/3 = 2
// (a double loop gives 1.9999999999999998); two votes d > e give d 2. Four-way tie at 2:
// by name a, b, c, d, then e with 0.
TEST(ExactTiesTest, PluralityThirdsTieWithWholePoints) {
  const absl::StatusOr<Election> e =
      Read(Alternatives("abcde") + "2: 4,5\n6: {1,2,3},5\n", "thirds.soc");
  ASSERT_THAT(e, IsOk()) << e.status();
  const SocialOrder plurality = Plurality(e->votes, e->priority);
  EXPECT_THAT(e->Names(plurality.order), ElementsAre("a", "b", "c", "d", "e"));
  for (const char* agent : {"a", "b", "c", "d"}) {
    EXPECT_EQ(plurality.score[*e->index.Find(agent)], 2.0) << agent;
  }
}

// Approval(3): ten votes tie a..j at the top, so each shares the 3 approved places, 3/10
// a vote, 10 * 3/10 = 3 (a double loop gives 2.9999999999999996); three votes z > y
// approve z and y, 3 each. Twelve-way tie at 3, by name.
TEST(ExactTiesTest, ApprovalTenthsTieWithWholePoints) {
  const absl::StatusOr<Election> e = Read(
      Alternatives("abcdefghijyz") + "3: 12,11\n10: {1,2,3,4,5,6,7,8,9,10},12\n", "tenths.soc");
  ASSERT_THAT(e, IsOk()) << e.status();
  const SocialOrder approval = Approval(e->votes, 3, e->priority);
  EXPECT_THAT(e->Names(approval.order),
              ElementsAre("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "y", "z"));
  for (double s : approval.score) EXPECT_EQ(s, 3.0);
}

// Borda on weighted 2-agent votes: A > C with weights 0.1, 0.2, 0.3 and B > C with 0.3,
// 0.2, 0.1, so A and B hold the same three weights (0.6000000000000001 and 0.6 when added
// in vote order). With B first by priority the order is B, A, C.
TEST(ExactTiesTest, BordaSumsTheSameWeightsToTheSameScore) {
  constexpr AgentId kA = 0, kB = 1, kC = 2;
  VoteSet profile(3);
  for (double w : {0.1, 0.2, 0.3}) AddWeakOrder(profile, {{kA}, {kC}}, w);
  for (double w : {0.3, 0.2, 0.1}) AddWeakOrder(profile, {{kB}, {kC}}, w);
  const std::vector<uint32_t> b_first = {1, 0, 2};
  const SocialOrder borda = Borda(profile, b_first);
  EXPECT_THAT(borda.order, ElementsAre(kB, kA, kC));
  EXPECT_EQ(borda.score[kA], borda.score[kB]);
  EXPECT_EQ(Plurality(profile, b_first).order, borda.order);  // the same points
}

// STV, 2 seats, n = 9, Droop quota floor(9/3) + 1 = 4. Votes: three of weight 1 A > B, one
// of weight 3 A > C, one of weight 3 D.
// Round 1: A 6 >= 4 is elected; its votes keep (6 - 4)/6 = 1/3 of their value: B gets
// 3 * 1/3 = 1, C gets 3 * 1/3 = 1 (in doubles 0.9999999999999998 and 1.0). The fixed-point
// count truncates the transfer value to 0.333333333: B 3 * 0.333333333 and C
// 3 * 0.333333333, 0.999999999 each — still equal.
// Round 2: B 0.999999999, C 0.999999999, D 3, no quota: B and C tie for last, C (later by
// name) goes out; its vote is exhausted. Round 3: B 0.999999999 < D 3: B out. D is elected
// for the last seat with 3. Order A, D, B, C; scores 8.6, 7.3, 4.0999999999, 3.0999999999.
TEST(ExactTiesTest, StvFractionalTransfersTieExactly) {
  constexpr AgentId kA = 0, kB = 1, kC = 2, kD = 3;
  VoteSet profile(4);
  for (int i = 0; i < 3; ++i) AddWeakOrder(profile, {{kA}, {kB}});
  AddWeakOrder(profile, {{kA}, {kC}}, 3.0);
  AddWeakOrder(profile, {{kD}}, 3.0);
  const absl::StatusOr<StvOutcome> stv = Stv(profile, {.winners = 2}, IdentityPriority(4));
  ASSERT_THAT(stv, IsOk()) << stv.status();
  EXPECT_THAT(stv->order.order, ElementsAre(kA, kD, kB, kC));
  EXPECT_EQ(stv->votes[kB], stv->votes[kC]);
  EXPECT_THAT(stv->votes,
              ElementsAre(6, DoubleNear(0.999999999, 1e-15), DoubleNear(0.999999999, 1e-15), 3));
  EXPECT_THAT(stv->order.score,
              ElementsAre(DoubleNear(8.6, 1e-12), DoubleNear(4.0999999999, 1e-12),
                          DoubleNear(3.0999999999, 1e-12), DoubleNear(7.3, 1e-12)));
}

// STV on the plurality profile above (five agents, 2 seats, n = 8, quota floor(8/3) + 1 = 3).
// Round 1: a, b, c hold 6 * 1/3 = 2 each (a split of a whole vote over 3 is exact in the
// count's units; doubles give 1.9999999999999998), d 2, e 0: e is out. Round 2: a, b, c, d
// tie at 2 below the quota: d (last by name) is out; its votes d > e are exhausted. Round 3:
// a, b, c at 2, c out. Round 4: a 6 * 1/2 = 3 reaches the quota (surplus 0). Round 5: b 3.
// Order a, b, c, d, e; scores 2*5 + .3, 9 + .3, 5 + .2, 4 + .2, 3 + .0.
TEST(ExactTiesTest, StvSplitsTiedBallotsExactly) {
  const absl::StatusOr<Election> e =
      Read(Alternatives("abcde") + "2: 4,5\n6: {1,2,3},5\n", "thirds.soc");
  ASSERT_THAT(e, IsOk()) << e.status();
  const absl::StatusOr<StvOutcome> stv = Stv(e->votes, {}, e->priority);
  ASSERT_THAT(stv, IsOk()) << stv.status();
  EXPECT_THAT(e->Names(stv->order.order), ElementsAre("a", "b", "c", "d", "e"));
  EXPECT_EQ(stv->votes[*e->index.Find("c")], 2.0);
  EXPECT_EQ(stv->votes[*e->index.Find("d")], 2.0);
  std::vector<double> scores;
  for (AgentId a : stv->order.order) scores.push_back(stv->order.score[a]);
  EXPECT_THAT(scores, ElementsAre(DoubleNear(10.3, 1e-12), DoubleNear(9.3, 1e-12),
                                  DoubleNear(5.2, 1e-12), DoubleNear(4.2, 1e-12), 3.0));
}

// Kemeny with counts past 1e9, where a tolerance relative to the counts (1e-9 x 6e9 = 6)
// would accept an order worse by a whole vote. N(a,b) = N(b,c) = N(c,a) = X + 1 and the
// reverse counts X, X = 1e9: one majority cycle; the three rotations a>b>c, b>c>a, c>a>b
// score 3X + 2, their reverses 3X + 1. With priority a, c, b the first optimal order by
// priority is a > b > c (a > c > b scores 3X + 1).
TEST(ExactTiesTest, KemenyComparesLargeIntegerCountsExactly) {
  const double x = 1e9;
  Eigen::MatrixXd n(3, 3);
  n << 0, x + 1, x,  //
      x, 0, x + 1,   //
      x + 1, x, 0;
  const std::vector<uint32_t> priority = {0, 2, 1};  // a, c, b
  const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {}, priority);
  ASSERT_THAT(kemeny, IsOk()) << kemeny.status();
  EXPECT_THAT(kemeny->order.order, ElementsAre(0, 1, 2));
  EXPECT_EQ(kemeny->value, 3 * x + 2);
}

// The five votes b>c>a, c>a>b, b>c>a, a>b>c, c>a>b: M(a,b) = 3 - 2 = 1, M(b,c) = 3 - 2 = 1,
// M(c,a) = 4 - 1 = 3. By hand: the payoffs against a, b, c, (p^T M) = (3 p_c - p_b,
// p_a - p_c, p_b - 3 p_a), all vanish at p = (1/5, 3/5, 1/5), the unique maximal lottery.
// a and c have equal probability and rating 0: by name, b, a, c.
constexpr char kFiveVotes[] = "1: 2,3,1\n1: 3,1,2\n1: 2,3,1\n1: 1,2,3\n1: 3,1,2\n";

TEST(ExactTiesTest, MaximalLotteryFiveVotesBreakByName) {
  const absl::StatusOr<Election> e = Read(Alternatives("abc") + kFiveVotes, "five.soc");
  ASSERT_THAT(e, IsOk()) << e.status();
  const Eigen::MatrixXd margins = *BatchTally::FromVotes(e->votes).MarginMatrix();
  const ExactLotteryOptions options;
  const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(margins, options);
  ASSERT_THAT(ml, IsOk()) << ml.status();
  const AgentId a = *e->index.Find("a"), b = *e->index.Find("b"), c = *e->index.Find("c");
  EXPECT_NEAR(ml->lottery[a], 0.2, 1e-12);
  EXPECT_NEAR(ml->lottery[b], 0.6, 1e-12);
  EXPECT_NEAR(ml->lottery[c], 0.2, 1e-12);
  EXPECT_THAT(
      e->Names(RankByProbabilityThenRating(ml->lottery, ml->rating, e->index, options.tolerance)),
      ElementsAre("b", "a", "c"));

  // IML: one level holding all three (the lottery's support), scores 0 + p: b 0.6,
  // a 0.2, c 0.2.
  const absl::StatusOr<ImlOutcome> iml = IterativeMaximalLotteries(margins, options);
  ASSERT_THAT(iml, IsOk()) << iml.status();
  ASSERT_EQ(iml->levels.size(), 1u);
  EXPECT_THAT(e->Names(RankByRating(iml->score, e->index, options.tolerance)),
              ElementsAre("b", "a", "c"));
}

// PrefLib 00062-00000002 (tests/data/preflib): D and E both lie outside the maximal
// lottery's support with rating -1/3 (the solver gives -0.3333333333335556 and
// -0.33333333333333337); within the 1e-9 tolerance they tie, so D comes before E.
TEST(ExactTiesTest, MaximalLotteryOnPreflibOrdersDBeforeE) {
  const absl::StatusOr<std::string> content =
      io::ReadFileContent(RATINGD_TEST_DATA "/preflib/00062-00000002.soc");
  ASSERT_THAT(content, IsOk()) << content.status();
  const absl::StatusOr<Election> e = Read(*content, "00062-00000002.soc");
  ASSERT_THAT(e, IsOk()) << e.status();
  const ExactLotteryOptions options;
  const absl::StatusOr<ExactLottery> ml =
      SolveMaximalLottery(*BatchTally::FromVotes(e->votes).MarginMatrix(), options);
  ASSERT_THAT(ml, IsOk()) << ml.status();
  const AgentId d = *e->index.Find("D"), e_agent = *e->index.Find("E");
  EXPECT_EQ(ml->lottery[d], 0.0);
  EXPECT_EQ(ml->lottery[e_agent], 0.0);
  EXPECT_NEAR(ml->rating[d], -1.0 / 3, 1e-9);
  EXPECT_NEAR(ml->rating[e_agent], -1.0 / 3, 1e-9);
  const std::vector<std::string> order =
      e->Names(RankByProbabilityThenRating(ml->lottery, ml->rating, e->index, options.tolerance));
  const auto at = [&](const char* name) {
    return std::find(order.begin(), order.end(), name) - order.begin();
  };
  EXPECT_EQ(at("E"), at("D") + 1);
}

}  // namespace
}  // namespace ratings::voting
