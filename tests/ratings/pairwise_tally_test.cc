#include "ratings/pairwise_tally.h"

#include <vector>

#include "gtest/gtest.h"

namespace ratings {
namespace {

constexpr AgentId kA = 0, kB = 1, kC = 2;

void Add(PairwiseTally& tally, std::vector<AgentId> agents, std::vector<uint32_t> ranks,
         double weight = 1) {
  tally.Add({agents, ranks, weight});
}

// [VasE] Fig. 4 and the appendix profile of the pentathlon:
// 1: A>B>C, 1: A>C>B, 2: C>A>B, 1: B>C>A.
PairwiseTally Pentathlon() {
  PairwiseTally tally;
  tally.Resize(3);
  Add(tally, {kA, kB, kC}, {1, 2, 3});
  Add(tally, {kA, kC, kB}, {1, 2, 3});
  Add(tally, {kC, kA, kB}, {1, 2, 3}, 2.0);
  Add(tally, {kB, kC, kA}, {1, 2, 3});
  return tally;
}

TEST(PairwiseTallyTest, PentathlonPreferenceMatrixOfFigure4) {
  const PairwiseTally tally = Pentathlon();
  const double n[3][3] = {{0, 4, 2}, {1, 0, 2}, {3, 3, 0}};
  for (AgentId a = 0; a < 3; ++a) {
    for (AgentId b = 0; b < 3; ++b) EXPECT_EQ(tally.N(a, b), n[a][b]) << a << "," << b;
  }
}

TEST(PairwiseTallyTest, PentathlonMarginMatrixOfFigure4) {
  const PairwiseTally tally = Pentathlon();
  const double m[3][3] = {{0, 3, -1}, {-3, 0, -1}, {1, 1, 0}};
  const Eigen::MatrixXd dense = tally.MarginMatrix();
  for (AgentId a = 0; a < 3; ++a) {
    for (AgentId b = 0; b < 3; ++b) {
      EXPECT_EQ(tally.Margin(a, b), m[a][b]) << a << "," << b;
      EXPECT_EQ(dense(a, b), m[a][b]) << a << "," << b;
    }
  }
}

TEST(PairwiseTallyTest, TiesCountForNeither) {
  PairwiseTally tally;
  tally.Resize(3);
  Add(tally, {kA, kB, kC}, {1, 1, 2});
  EXPECT_EQ(tally.N(kA, kB), 0);
  EXPECT_EQ(tally.N(kB, kA), 0);
  EXPECT_EQ(tally.N(kA, kC), 1);
  EXPECT_EQ(tally.N(kB, kC), 1);
}

TEST(PairwiseTallyTest, GrowingKeepsCounts) {
  PairwiseTally tally = Pentathlon();
  tally.Resize(40);  // past the first capacity of 16
  EXPECT_EQ(tally.size(), 40u);
  EXPECT_EQ(tally.N(kA, kB), 4);
  EXPECT_EQ(tally.N(kC, kA), 3);
  EXPECT_EQ(tally.N(39, 0), 0);
  Add(tally, {39, kA}, {1, 2});
  EXPECT_EQ(tally.Margin(39, kA), 1);
}

}  // namespace
}  // namespace ratings
