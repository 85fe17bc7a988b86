#include "ratings/active/regret_matching_game.h"

#include <algorithm>

#include "ratings/active/selection.h"

namespace ratings::active {

RegretMatchingGame::RegretMatchingGame(size_t rows, size_t columns, double exploration)
    : rows_(rows),
      columns_(columns),
      exploration_(exploration),
      count_(rows * columns, 0),
      total_(rows * columns, 0.0),
      regret_row_(rows, 0.0),
      regret_column_(columns, 0.0),
      average_row_(rows, 0.0),
      average_column_(columns, 0.0) {}

std::vector<double> RegretMatchingGame::Matching(const std::vector<double>& regret) {
  std::vector<double> sigma(regret.size());
  double positive = 0;
  for (double r : regret) positive += std::max(r, 0.0);
  for (size_t i = 0; i < regret.size(); ++i) {
    sigma[i] = positive > 0 ? std::max(regret[i], 0.0) / positive
                            : 1.0 / static_cast<double>(regret.size());
  }
  return sigma;
}

double RegretMatchingGame::Mean(size_t row, size_t column) const {
  const size_t cell = row * columns_ + column;
  return count_[cell] == 0 ? 0.0 : total_[cell] / static_cast<double>(count_[cell]);
}

std::vector<double> RegretMatchingGame::RowSampling() const {
  return MixUniform(Matching(regret_row_), exploration_);
}

std::vector<double> RegretMatchingGame::ColumnSampling() const {
  return MixUniform(Matching(regret_column_), exploration_);
}

void RegretMatchingGame::Observe(size_t row, size_t column, double utility) {
  const std::vector<double> sigma_row = Matching(regret_row_);
  const std::vector<double> sigma_column = Matching(regret_column_);
  for (size_t i = 0; i < rows_; ++i) average_row_[i] += sigma_row[i];
  for (size_t j = 0; j < columns_; ++j) average_column_[j] += sigma_column[j];
  const size_t cell = row * columns_ + column;
  ++count_[cell];
  total_[cell] += utility;
  // UTIL(b1, b2) = the sampled utility in the sampled cell, the empirical mean elsewhere.
  for (size_t b1 = 0; b1 < rows_; ++b1) {
    const double util = b1 == row ? utility : Mean(b1, column);
    regret_row_[b1] += util - utility;
  }
  for (size_t b2 = 0; b2 < columns_; ++b2) {
    const double util = b2 == column ? utility : Mean(row, b2);
    regret_column_[b2] -= util - utility;
  }
}

std::vector<double> RegretMatchingGame::ColumnAverage() const {
  double total = 0;
  for (double x : average_column_) total += x;
  std::vector<double> average(columns_, 1.0 / static_cast<double>(columns_));
  if (total > 0) {
    for (size_t j = 0; j < columns_; ++j) average[j] = average_column_[j] / total;
  }
  return average;
}

std::vector<double> RegretMatchingGame::RowRatings() const {
  const std::vector<double> column = ColumnAverage();
  std::vector<double> rating(rows_, 0.0);
  for (size_t b1 = 0; b1 < rows_; ++b1) {
    for (size_t b2 = 0; b2 < columns_; ++b2) rating[b1] += column[b2] * Mean(b1, b2);
  }
  return rating;
}

}  // namespace ratings::active
