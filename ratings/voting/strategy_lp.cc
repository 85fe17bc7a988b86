#include "ratings/voting/strategy_lp.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "ClpSimplex.hpp"
#include "absl/strings/str_cat.h"

namespace ratings::voting {
namespace {

constexpr double kValueSlack = 1e-9;

}  // namespace

StrategyLp::StrategyLp(const Eigen::MatrixXd& a, std::string what)
    : m_(static_cast<int>(a.rows())),
      n_(static_cast<int>(a.cols())),
      what_(std::move(what)),
      model_(std::make_unique<ClpSimplex>()) {
  std::vector<CoinBigIndex> start;
  std::vector<int> index;
  std::vector<double> value;
  for (int i = 0; i < m_; ++i) {
    start.push_back(static_cast<CoinBigIndex>(index.size()));
    for (int j = 0; j < n_; ++j) {
      if (a(i, j) != 0.0) {
        index.push_back(j);
        value.push_back(a(i, j));
      }
    }
    index.push_back(n_);
    value.push_back(1.0);
  }
  start.push_back(static_cast<CoinBigIndex>(index.size()));
  for (int j = 0; j < n_; ++j) {
    index.push_back(j);
    value.push_back(-1.0);
  }
  start.push_back(static_cast<CoinBigIndex>(index.size()));
  std::vector<double> col_lower(m_ + 1, 0.0), col_upper(m_ + 1, 1.0), objective(m_ + 1, 0.0);
  col_lower[m_] = -COIN_DBL_MAX;
  col_upper[m_] = COIN_DBL_MAX;
  objective[m_] = 1.0;
  std::vector<double> row_lower(n_ + 1, 0.0), row_upper(n_ + 1, COIN_DBL_MAX);
  row_lower[n_] = row_upper[n_] = 1.0;
  model_->setLogLevel(0);
  model_->loadProblem(m_ + 1, n_ + 1, start.data(), index.data(), value.data(), col_lower.data(),
                      col_upper.data(), objective.data(), row_lower.data(), row_upper.data());
  model_->setOptimizationDirection(-1.0);  // maximise
  // Tighter than Clp's 1e-7 defaults: supports are read off the solutions at 1e-9.
  model_->setPrimalTolerance(1e-10);
  model_->setDualTolerance(1e-10);
}

StrategyLp::~StrategyLp() = default;

absl::StatusOr<Eigen::VectorXd> StrategyLp::SolveValue() {
  model_->dual();
  if (!model_->isProvenOptimal()) model_->primal();  // degenerate games: the other method
  if (absl::Status s = Optimal(); !s.ok()) return s;
  value_ = model_->primalColumnSolution()[m_];
  return Solution();
}

void StrategyLp::FixValue(double value) {
  value_ = value;
  model_->setColumnBounds(m_, value, value);
}

absl::StatusOr<Eigen::VectorXd> StrategyLp::Maximise(const Eigen::VectorXd& c) {
  for (int i = 0; i < m_; ++i) model_->setObjectiveCoefficient(i, c(i));
  model_->setObjectiveCoefficient(m_, 0.0);
  model_->primal();
  if (!model_->isProvenOptimal()) {
    // The value is fixed at the float the first solve returned. In a degenerate game that
    // can lie a rounding error above what the constraints reach, and Clp then reports the
    // LP infeasible: allow the value kValueSlack below it (the payoffs are scaled to
    // [-1, 1], so this is relative) and solve again, from scratch by the dual if need be.
    model_->setColumnBounds(m_, value_ - kValueSlack, value_);
    model_->primal();
    if (!model_->isProvenOptimal()) model_->dual();
    absl::Status optimal = Optimal();
    Eigen::VectorXd solution = Solution();
    model_->setColumnBounds(m_, value_, value_);  // the next objective starts exact again
    if (!optimal.ok()) return optimal;
    return solution;
  }
  if (absl::Status s = Optimal(); !s.ok()) return s;
  return Solution();
}

absl::Status StrategyLp::Optimal() const {
  if (model_->isProvenOptimal()) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat("Clp did not solve ", what_, " (status ", model_->status(), ")"));
}

Eigen::VectorXd StrategyLp::Solution() const {
  const double* x = model_->primalColumnSolution();
  Eigen::VectorXd p(m_);
  for (int i = 0; i < m_; ++i) p(i) = std::max(0.0, x[i]);
  const double total = p.sum();
  if (total > 0.0) p /= total;
  return p;
}

}  // namespace ratings::voting
