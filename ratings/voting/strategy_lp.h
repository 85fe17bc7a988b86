// The linear program of one player of a two-player zero-sum matrix game, solved with COIN-OR
// Clp: the player's optimal (maximin) strategies. Shared by exact maximal lotteries
// (docs/MODELS.md §6) and Nash averaging ([AE] §4.2.1).
#pragma once

#include <memory>
#include <string>

#include "Eigen/Core"
#include "absl/status/statusor.h"

class ClpSimplex;  // COIN-OR Clp, linked privately by ratings_voting

namespace ratings::voting {

// `a` is the player's payoff, own strategies x opponent's (a(i, j): the player plays i,
// the opponent j), finite and best scaled to max|a| <= 1. Columns p_0..p_{m-1}, v; rows
// sum_i a(i, j) p_i - v >= 0 (j < n) and sum_i p_i = 1 (row n).
class StrategyLp {
 public:
  // `what` names the LP in error messages ("the maximal-lottery LP").
  StrategyLp(const Eigen::MatrixXd& a, std::string what);
  ~StrategyLp();
  StrategyLp(const StrategyLp&) = delete;
  StrategyLp& operator=(const StrategyLp&) = delete;

  // max v: an optimal strategy (a vertex); value() is then the game value.
  absl::StatusOr<Eigen::VectorXd> SolveValue();
  double value() const { return value_; }

  // Fixes v at `value`, so that Maximise ranges over the optimal strategies.
  void FixValue(double value);

  // Maximises c^T p over the strategies guaranteeing the fixed value (warm-started primal
  // simplex).
  absl::StatusOr<Eigen::VectorXd> Maximise(const Eigen::VectorXd& c);

 private:
  absl::Status Optimal() const;
  // The primal solution, clipped at 0 and normalised to sum 1.
  Eigen::VectorXd Solution() const;

  int m_;
  int n_;
  std::string what_;
  double value_ = 0.0;
  std::unique_ptr<ClpSimplex> model_;
};

}  // namespace ratings::voting
