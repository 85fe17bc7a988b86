// Two regret-matching bandits in self-play on an unknown zero-sum matrix game ([AE] App. A,
// after Bošanský et al. 2016 §4.4.3): the empirical game is the mean sampled utility of
// each cell; each player samples from its regret-matching strategy mixed with uniform
// exploration; regrets are updated against the empirical game, with the sampled utility
// in the sampled cell. The average strategies approach an equilibrium (§4.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace ratings::active {

class RegretMatchingGame {
 public:
  // `rows` strategies for player 1, `columns` for player 2; exploration γ in [0, 1].
  RegretMatchingGame(size_t rows, size_t columns, double exploration);

  // The sampling strategies σ̂_i = γ/|S_i| + (1 - γ) σ_i of this round.
  std::vector<double> RowSampling() const;
  std::vector<double> ColumnSampling() const;

  // Folds in u_1 = `utility` for the cell (row, column): the cell's mean and both players'
  // regrets, then the average strategies gain this round's σ_1, σ_2 (before the update).
  void Observe(size_t row, size_t column, double utility);

  // RATING(b1) = E_{b2 ~ σ̄_2} ū_1(b1, b2): expected utility against the column player's
  // average strategy (uniform before any observation).
  std::vector<double> RowRatings() const;

  // σ̄_2: the column player's average strategy.
  std::vector<double> ColumnAverage() const;

 private:
  static std::vector<double> Matching(const std::vector<double>& regret);
  double Mean(size_t row, size_t column) const;

  size_t rows_;
  size_t columns_;
  double exploration_;
  std::vector<int64_t> count_;  // [row * columns + column]
  std::vector<double> total_;   // summed utility per cell
  std::vector<double> regret_row_;
  std::vector<double> regret_column_;
  std::vector<double> average_row_;     // Σ_t σ_1^t
  std::vector<double> average_column_;  // Σ_t σ_2^t
};

}  // namespace ratings::active
