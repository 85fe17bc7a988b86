// Every rule of the [VasE] appendix on its running example, the pentathlon
// of Fig. 1. Expected values are the appendix's own, except where it has a typo, marked
// "TYPO" with the correction and why.
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
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using testing::kA;
using testing::kB;
using testing::kC;
using testing::Pentathlon;

const std::vector<uint32_t> kPriority = IdentityPriority(3);

Eigen::MatrixXd PentathlonN() { return *BatchTally::FromVotes(Pentathlon()).PreferenceMatrix(); }
Eigen::MatrixXd PentathlonM() { return *BatchTally::FromVotes(Pentathlon()).MarginMatrix(); }

TEST(PentathlonTest, MatricesOfTheAppendix) {
  const Eigen::MatrixXd n = PentathlonN();
  const Eigen::MatrixXd m = PentathlonM();
  const double expected_n[3][3] = {{0, 4, 2}, {1, 0, 2}, {3, 3, 0}};
  const double expected_m[3][3] = {{0, 3, -1}, {-3, 0, -1}, {1, 1, 0}};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(n(a, b), expected_n[a][b]);
      EXPECT_EQ(m(a, b), expected_m[a][b]);
    }
  }
}

// "When k = 2, A has a score of 1 + 1 + 2 = 4, C has a score of 1 + 2 + 1 = 4, and B has
// a score of 1 + 1 = 2."
TEST(PentathlonTest, ApprovalTwo) {
  EXPECT_THAT(ApprovalScores(Pentathlon(), 2), ElementsAre(4, 2, 4));
}

// TYPO: the appendix prints "A with a score of 2, B with a score of 2, and C with a score
// of 1", but B tops one vote (weight 1: B>C>A) and C tops two (weight 2: C>A>B); its next
// sentence ("which of A or C is top-ranked") agrees with A 2, B 1, C 2.
TEST(PentathlonTest, Plurality) {
  EXPECT_THAT(PluralityScores(Pentathlon()), ElementsAre(2, 1, 2));
}

// "A scores 2 + 2 + 2·1 = 6, B scores 1 + 2 = 3, and C scores 1 + 2·2 + 1 = 6."
TEST(PentathlonTest, Borda) { EXPECT_THAT(BordaScores(Pentathlon()), ElementsAre(6, 3, 6)); }

// "STV ranks the alternatives C > A > B with scores (6.3, 3.2, 2.1)". By hand: one
// winner, Droop quota floor(5/2 + 1) = 3; round 1 (A 2, B 1, C 2) eliminates B, whose
// vote passes to C; round 2 elects C with 3 votes; A is left with 2.
TEST(PentathlonTest, Stv) {
  const absl::StatusOr<StvOutcome> stv = Stv(Pentathlon(), {}, kPriority);
  ASSERT_THAT(stv, IsOk()) << stv.status();
  EXPECT_EQ(stv->winners, 1);
  EXPECT_EQ(stv->quota, 3);
  EXPECT_THAT(stv->order.order, ElementsAre(kC, kA, kB));
  EXPECT_THAT(stv->order.score,
              ElementsAre(DoubleNear(3.2, 1e-12), DoubleNear(2.1, 1e-12), DoubleNear(6.3, 1e-12)));
}

// "the Copeland score of A is 1, B is 0, and C is 2."
TEST(PentathlonTest, Copeland) {
  EXPECT_THAT(CopelandScores(BatchTally::FromVotes(Pentathlon())), ElementsAre(1, 0, 2));
}

// The appendix's table of Kemeny values (C>A>B: 10 is the maximum) and "the scores are
// (6, 4, 0) for C, A, and B".
TEST(PentathlonTest, Kemeny) {
  const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(PentathlonN(), {}, kPriority);
  ASSERT_THAT(kemeny, IsOk()) << kemeny.status();
  EXPECT_EQ(kemeny->value, 10);
  EXPECT_THAT(kemeny->order.order, ElementsAre(kC, kA, kB));
  EXPECT_THAT(kemeny->order.score, ElementsAre(4, 0, 6));
}

// The appendix's strongest-path matrix P = [[0,4,0],[0,0,0],[3,3,0]] and order C > A > B.
// TYPO: it prints the scores (7, 4, 0), but its own definition SCHULZESCORE(a) = sum of
// N(a, b) over b below a gives C: N(C,A) + N(C,B) = 3 + 3 = 6 (A: N(A,B) = 4 and B: 0
// agree). No reading of the definitions gives 7 (sum of P(C, .) is 6 too).
TEST(PentathlonTest, Schulze) {
  const SchulzeOutcome schulze = Schulze(PentathlonN(), kPriority);
  const double expected_p[3][3] = {{0, 4, 0}, {0, 0, 0}, {3, 3, 0}};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) EXPECT_EQ(schulze.strongest_paths(a, b), expected_p[a][b]);
  }
  EXPECT_THAT(schulze.order.order, ElementsAre(kC, kA, kB));
  EXPECT_THAT(schulze.order.score, ElementsAre(4, 0, 6));
}

// Sorted pairs (A,B) 3, (C,A) 1, (C,B) 1; all locked; "C > A > B and scores (5, 3, 0)".
TEST(PentathlonTest, RankedPairs) {
  const SocialOrder rp = RankedPairs(PentathlonM(), kPriority);
  EXPECT_THAT(rp.order, ElementsAre(kC, kA, kB));
  EXPECT_THAT(rp.score, ElementsAre(3, 0, 5));
}

// "C is the only strategy that survives iterated elimination of dominated strategies.
// Hence ... maximal lotteries chooses C with probability 1."
TEST(PentathlonTest, MaximalLottery) {
  const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(PentathlonM());
  ASSERT_THAT(ml, IsOk()) << ml.status();
  EXPECT_THAT(ml->lottery,
              ElementsAre(DoubleNear(0, 1e-12), DoubleNear(0, 1e-12), DoubleNear(1, 1e-12)));
  EXPECT_TRUE(ml->unique);
  // Ratings: (M p)(a) / max|M| = column C of M over 3: A -1/3, B -1/3, C 0.
  EXPECT_THAT(ml->rating, ElementsAre(DoubleNear(-1.0 / 3, 1e-12), DoubleNear(-1.0 / 3, 1e-12),
                                      DoubleNear(0, 1e-12)));
}

// Three rounds with x0 = {(C, 1)}, x1 = {(A, 1)}, x2 = {(B, 1)}: "scores (3, 2, 1) for
// alternatives C, A, and B".
TEST(PentathlonTest, IterativeMaximalLotteries) {
  const absl::StatusOr<ImlOutcome> iml = IterativeMaximalLotteries(PentathlonM());
  ASSERT_THAT(iml, IsOk()) << iml.status();
  ASSERT_EQ(iml->levels.size(), 3u);
  EXPECT_EQ(iml->levels[0][0].first, kC);
  EXPECT_EQ(iml->levels[1][0].first, kA);
  EXPECT_EQ(iml->levels[2][0].first, kB);
  EXPECT_THAT(iml->score,
              ElementsAre(DoubleNear(2, 1e-9), DoubleNear(1, 1e-9), DoubleNear(3, 1e-9)));
}

}  // namespace
}  // namespace ratings::voting
