#include "ratings/active/regret_matching_game.h"

#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/active/selection.h"
#include "ratings/seeded_draws.h"

namespace ratings::active {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;

// One observation by hand ([AE] App. A), γ = 0: u = 1 in cell (0, 0). Row regrets:
// UTIL(0, 0) - u = 0, UTIL(1, 0) - u = ū(1, 0) - 1 = -1 -> σ_1 stays uniform (no positive
// regret). Column regrets: -(UTIL(0, 0) - u) = 0, -(ū(0, 1) - 1) = +1 -> σ_2 = (0, 1).
// The averages hold round 1's uniform strategies, so RATING = (0.5·1 + 0.5·0, 0).
TEST(RegretMatchingGameTest, OneObservationByHand) {
  RegretMatchingGame game(2, 2, 0.0);
  game.Observe(0, 0, 1.0);
  EXPECT_THAT(game.RowSampling(), ElementsAre(0.5, 0.5));
  EXPECT_THAT(game.ColumnSampling(), ElementsAre(0.0, 1.0));
  EXPECT_THAT(game.ColumnAverage(), ElementsAre(0.5, 0.5));
  EXPECT_THAT(game.RowRatings(), ElementsAre(0.5, 0.0));
}

TEST(RegretMatchingGameTest, ExplorationMixesUniform) {
  RegretMatchingGame game(2, 2, 0.2);
  game.Observe(0, 0, 1.0);
  EXPECT_THAT(game.ColumnSampling(), ElementsAre(DoubleNear(0.1, 1e-15), DoubleNear(0.9, 1e-15)));
}

// Self-play on a game with a known equilibrium: row payoffs [[2, -1], [-1, 1]] (utilities
// exact, no noise). By hand the column player's equilibrium makes the row player
// indifferent: 2y - (1 - y) = -y + (1 - y) -> y = 2/5; the row player's: x = 2/5 too.
// After 200,000 sampled rounds the column average is within 0.03 of (0.4, 0.6).
TEST(RegretMatchingGameTest, AverageStrategyApproachesTheEquilibrium) {
  const double payoff[2][2] = {{2, -1}, {-1, 1}};
  RegretMatchingGame game(2, 2, 0.05);
  std::mt19937_64 rng(17);
  for (int t = 0; t < 200000; ++t) {
    const size_t row = DrawWeighted(game.RowSampling(), rng);
    const size_t column = DrawWeighted(game.ColumnSampling(), rng);
    game.Observe(row, column, payoff[row][column]);
  }
  EXPECT_NEAR(game.ColumnAverage()[0], 0.4, 0.03);
  // The game's value is 1/5: both rows earn it against the equilibrium column strategy.
  EXPECT_NEAR(game.RowRatings()[0], 0.2, 0.1);
}

}  // namespace
}  // namespace ratings::active
