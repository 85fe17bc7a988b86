#include "ratings/voting/exact_lottery.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ratings/voting/max_entropy_strategy.h"
#include "ratings/voting/strategy_lp.h"

namespace ratings::voting {

absl::StatusOr<ExactLottery> SolveMaximalLottery(const Eigen::MatrixXd& margins,
                                                 const ExactLotteryOptions& options) {
  const Eigen::Index m = margins.rows();
  if (margins.cols() != m) {
    return absl::InvalidArgumentError("margin matrix is not square");
  }
  if (static_cast<size_t>(m) > options.max_agents) {
    return absl::InvalidArgumentError(absl::StrCat(m, " agents is above the limit of ",
                                                   options.max_agents,
                                                   " agents for the exact maximal lottery"));
  }
  ExactLottery out;
  if (m == 0) return out;  // (maxCoeff of an empty matrix is undefined)
  if (!margins.allFinite() || (margins + margins.transpose()).cwiseAbs().maxCoeff() > 0.0) {
    return absl::InvalidArgumentError("margin matrix is not finite and skew-symmetric");
  }
  const double scale = margins.cwiseAbs().maxCoeff();
  if (scale == 0.0) {  // every lottery is maximal: the uniform one has maximum entropy
    out.lottery.assign(static_cast<size_t>(m), 1.0 / static_cast<double>(m));
    out.rating.assign(static_cast<size_t>(m), 0.0);
    out.unique = m == 1;
    return out;
  }
  const double tol = options.tolerance;
  // Normalised margins within the tolerance of 0 are ties (docs/MODELS.md §6): below what the
  // LP resolves, and rounding residue of the counts (weights 0.1 + 0.2 against 0.3 leave
  // 5.6e-17), which would otherwise split exchangeable agents by solver noise.
  const Eigen::MatrixXd a =
      (margins / scale).unaryExpr([tol](double x) { return std::abs(x) <= tol ? 0.0 : x; });

  // Step 1.
  StrategyLp lp(a, "the maximal-lottery LP");
  absl::StatusOr<Eigen::VectorXd> first = lp.SolveValue();
  if (!first.ok()) return first.status();
  lp.FixValue(0.0);  // the value of a symmetric game
  ++out.linear_programs;

  // Step 2: probe the agents whose status the first vertex leaves open.
  Eigen::VectorXd sum = *first;
  int solutions = 1;
  std::vector<bool> settled(static_cast<size_t>(m), false);
  auto settle = [&](const Eigen::VectorXd& p) {
    const Eigen::VectorXd payoff = a.transpose() * p;
    for (Eigen::Index j = 0; j < m; ++j) {
      if (p(j) > tol || payoff(j) > tol) settled[static_cast<size_t>(j)] = true;
    }
  };
  settle(*first);
  for (Eigen::Index j = 0; j < m; ++j) {
    if (settled[static_cast<size_t>(j)]) continue;
    absl::StatusOr<Eigen::VectorXd> probe = lp.Maximise(Eigen::VectorXd::Unit(m, j));
    if (!probe.ok()) return probe.status();
    ++out.linear_programs;
    if ((*probe)(j) <= tol) {
      probe = lp.Maximise(a.col(j));
      if (!probe.ok()) return probe.status();
      ++out.linear_programs;
    }
    sum += *probe;
    ++solutions;
    settle(*probe);
  }
  const Eigen::VectorXd interior = sum / solutions;

  // Step 3 on the essential set E (the game is symmetric: E is both players').
  std::vector<bool> essential(static_cast<size_t>(m));
  for (Eigen::Index i = 0; i < m; ++i) essential[static_cast<size_t>(i)] = interior(i) > tol;
  const MaxEntropyStrategy best = MaximiseEntropy(a, 0.0, interior, essential, essential);
  out.unique = best.unique;
  const Eigen::VectorXd& p = best.strategy;
  const Eigen::VectorXd payoff = a * p;
  out.lottery.assign(p.data(), p.data() + m);
  out.rating.assign(payoff.data(), payoff.data() + m);
  out.exploitability = std::max(0.0, payoff.maxCoeff());
  return out;
}

}  // namespace ratings::voting
