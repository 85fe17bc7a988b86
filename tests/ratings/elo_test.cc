#include "ratings/elo.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::Play;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

Elo MakeElo(EloOptions options = {}) { return *Elo::Create(options); }

// Expected values below were computed by hand (Python, straight from docs/MODELS.md §2:
// E_ij = 1/(1 + 10^((r_j - r_i)/400)), each pair moving K/(k-1) (S - E)).
TEST(EloTest, FirstWinBetweenNewcomersMovesHalfK) {
  Elo elo = MakeElo();
  elo.Resize(2);
  Play(elo, {0, 1}, {1, 2});
  EXPECT_DOUBLE_EQ(elo.Rating(0), 1516.0);
  EXPECT_DOUBLE_EQ(elo.Rating(1), 1484.0);
}

TEST(EloTest, UpsetAfterAWin) {
  Elo elo = MakeElo();
  elo.Resize(2);
  Play(elo, {0, 1}, {1, 2});
  // E_A = 1/(1 + 10^(-32/400)) = 0.5459219227804837.
  EXPECT_DOUBLE_EQ(Elo::Expected(1516, 1484), 0.5459219227804837);
  Play(elo, {1, 0}, {1, 2});
  EXPECT_NEAR(elo.Rating(0), 1498.5304984710244, 1e-9);
  EXPECT_NEAR(elo.Rating(1), 1501.4695015289756, 1e-9);
}

TEST(EloTest, DrawBetweenEqualsMovesNothing) {
  Elo elo = MakeElo();
  elo.Resize(2);
  Play(elo, {0, 1}, {1, 1});
  EXPECT_EQ(elo.Rating(0), 1500.0);
  EXPECT_EQ(elo.Rating(1), 1500.0);
}

TEST(EloTest, DrawPullsRatingsTogether) {
  Elo elo = MakeElo();
  elo.Resize(2);
  Play(elo, {0, 1}, {1, 2});
  Play(elo, {0, 1}, {1, 1});
  EXPECT_NEAR(elo.Rating(0), 1514.5304984710244, 1e-9);
  EXPECT_NEAR(elo.Rating(1), 1485.4695015289756, 1e-9);
}

TEST(EloTest, ThreePlayerResultWithTieUsesPreResultRatings) {
  Elo elo = MakeElo();
  elo.Resize(3);
  Play(elo, {0, 1}, {1, 2});  // A 1516, B 1484, C 1500
  // C first, A and B tied second; each pair moves K/(k-1) = 16.
  Play(elo, {2, 0, 1}, {1, 2, 2});
  EXPECT_NEAR(elo.Rating(0), 1506.8970958387513, 1e-9);
  EXPECT_NEAR(elo.Rating(1), 1477.1029041612487, 1e-9);
  // E(C,A) + E(C,B) = 1 exactly (differences +-16), so C gains 16 * (2 - 1).
  EXPECT_NEAR(elo.Rating(2), 1516.0, 1e-9);
  EXPECT_NEAR(elo.Rating(0) + elo.Rating(1) + elo.Rating(2), 4500.0, 1e-9);
}

TEST(EloTest, ThreeNewcomersOneWinnerTwoTied) {
  Elo elo = MakeElo();
  elo.Resize(3);
  Play(elo, {0, 1, 2}, {1, 2, 2});
  // Step 16: A wins two pairs (+8 each); B and C lose to A (-8) and draw (0).
  EXPECT_DOUBLE_EQ(elo.Rating(0), 1516.0);
  EXPECT_DOUBLE_EQ(elo.Rating(1), 1492.0);
  EXPECT_DOUBLE_EQ(elo.Rating(2), 1492.0);
}

// Two agents with equal ratings and equal ranks in one result must move by exactly the same
// amount, wherever they stand (docs/MODELS.md §9). B and C at 1486.5639102457494 tie above X
// at 1500.6571137389083, standings B, X, C: each gains 16 * (1 - E(B, X)), but E(B, X) and
// 1 - E(X, C) differ in the last bit (B 1494.8882403840116, C 1494.8882403840119 when each
// pair was computed from its first standing's side). Moves come from the lower-rated side.
TEST(EloTest, EqualAgentsInTheSamePlaceMoveIdentically) {
  Elo elo = MakeElo();
  ASSERT_TRUE(elo.Restore({1486.5639102457494, 1500.6571137389083, 1486.5639102457494}).ok());
  Play(elo, {0, 1, 2}, {1, 2, 1});
  EXPECT_EQ(elo.Rating(0), elo.Rating(2));
  EXPECT_NEAR(elo.Rating(0), 1494.8882403840116, 1e-9);
  EXPECT_NEAR(elo.Rating(0) + elo.Rating(1) + elo.Rating(2),
              2 * 1486.5639102457494 + 1500.6571137389083, 1e-9);
}

TEST(EloTest, WeightScalesTheStep) {
  for (const auto& [weight, expected] :
       std::vector<std::pair<double, double>>{{2.0, 1532.0}, {0.5, 1508.0}, {0.25, 1504.0}}) {
    Elo elo = MakeElo();
    elo.Resize(2);
    Play(elo, {0, 1}, {1, 2}, weight);
    EXPECT_DOUBLE_EQ(elo.Rating(0), expected) << "weight " << weight;
    EXPECT_DOUBLE_EQ(elo.Rating(1), 3000.0 - expected) << "weight " << weight;
  }
}

TEST(EloTest, OptionsChangeKAndInitial) {
  Elo elo = MakeElo({.k = 10, .initial = 1000});
  elo.Resize(2);
  Play(elo, {0, 1}, {2, 1});
  EXPECT_DOUBLE_EQ(elo.Rating(0), 995.0);
  EXPECT_DOUBLE_EQ(elo.Rating(1), 1005.0);
}

TEST(EloTest, UntouchedAgentsKeepTheirRating) {
  Elo elo = MakeElo();
  elo.Resize(5);
  Play(elo, {3, 1}, {1, 2});
  EXPECT_EQ(elo.Rating(0), 1500.0);
  EXPECT_EQ(elo.Rating(2), 1500.0);
  EXPECT_EQ(elo.Rating(4), 1500.0);
}

TEST(EloTest, RejectsBadOptions) {
  EXPECT_THAT(Elo::Create({.k = -1}), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
  EXPECT_THAT(Elo::Create({.k = 32, .initial = std::numeric_limits<double>::infinity()}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("initial")));
}

}  // namespace
}  // namespace ratings
