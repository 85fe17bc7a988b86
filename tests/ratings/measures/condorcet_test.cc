#include "ratings/measures/condorcet.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratings {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// SCO §4.1 Eq. (10), 2: A>B>C, 3: C>A>B, tallied by hand: N(A,B) = 5, N(B,A) = 0,
// N(A,C) = 2, N(C,A) = 3, N(B,C) = 2, N(C,B) = 3. C is the strong Condorcet winner.
TEST(CondorcetTest, PaperExampleHasC) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 5, .n_ba = 0},
                                        {.a = 0, .b = 2, .n_ab = 2, .n_ba = 3},
                                        {.a = 1, .b = 2, .n_ab = 2, .n_ba = 3}};
  EXPECT_EQ(CondorcetWinner(3, pairs), AgentId{2});
  EXPECT_THAT(WeakCondorcetWinners(3, pairs), ElementsAre(2));
}

// A > B > C > A (the rotations A>B>C, B>C>A, C>A>B): no winner, weak or strong.
TEST(CondorcetTest, CycleHasNone) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 2, .n_ba = 1},
                                        {.a = 1, .b = 2, .n_ab = 2, .n_ba = 1},
                                        {.a = 0, .b = 2, .n_ab = 1, .n_ba = 2}};
  EXPECT_EQ(CondorcetWinner(3, pairs), std::nullopt);
  EXPECT_THAT(WeakCondorcetWinners(3, pairs), IsEmpty());
}

// Sparse data: a pair never compared is a tie, so beating everyone met is not enough;
// both unbeaten agents are weak winners.
TEST(CondorcetTest, MissingPairsAreTies) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 4, .n_ba = 1}};
  EXPECT_EQ(CondorcetWinner(3, pairs), std::nullopt);
  EXPECT_THAT(WeakCondorcetWinners(3, pairs), ElementsAre(0, 2));
  EXPECT_EQ(CondorcetWinner(2, pairs), AgentId{0});
  EXPECT_EQ(CondorcetWinner(1, {}), std::nullopt);
}

}  // namespace
}  // namespace ratings
