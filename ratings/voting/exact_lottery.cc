#include "ratings/voting/exact_lottery.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "ClpSimplex.hpp"
#include "Eigen/Cholesky"
#include "Eigen/LU"
#include "Eigen/QR"
#include "absl/strings/str_cat.h"

namespace ratings::voting {
namespace {

// The LP of step 1 over the scaled margins `a`: columns p_0..p_{m-1}, v; rows
// sum_i a(i, j) p_i - v >= 0 (j < m) and sum_i p_i = 1 (row m).
class MarginLp {
 public:
  explicit MarginLp(const Eigen::MatrixXd& a) : m_(static_cast<int>(a.rows())) {
    std::vector<CoinBigIndex> start;
    std::vector<int> index;
    std::vector<double> value;
    for (int i = 0; i < m_; ++i) {
      start.push_back(static_cast<CoinBigIndex>(index.size()));
      for (int j = 0; j < m_; ++j) {
        if (a(i, j) != 0.0) {
          index.push_back(j);
          value.push_back(a(i, j));
        }
      }
      index.push_back(m_);
      value.push_back(1.0);
    }
    start.push_back(static_cast<CoinBigIndex>(index.size()));
    for (int j = 0; j < m_; ++j) {
      index.push_back(j);
      value.push_back(-1.0);
    }
    start.push_back(static_cast<CoinBigIndex>(index.size()));
    std::vector<double> col_lower(m_ + 1, 0.0), col_upper(m_ + 1, 1.0), objective(m_ + 1, 0.0);
    col_lower[m_] = -COIN_DBL_MAX;
    col_upper[m_] = COIN_DBL_MAX;
    objective[m_] = 1.0;
    std::vector<double> row_lower(m_ + 1, 0.0), row_upper(m_ + 1, COIN_DBL_MAX);
    row_lower[m_] = row_upper[m_] = 1.0;
    model_.setLogLevel(0);
    model_.loadProblem(m_ + 1, m_ + 1, start.data(), index.data(), value.data(), col_lower.data(),
                       col_upper.data(), objective.data(), row_lower.data(), row_upper.data());
    model_.setOptimizationDirection(-1.0);  // maximise
  }

  // Step 1: max v. Then v is fixed at the game value 0 for the probes.
  absl::StatusOr<Eigen::VectorXd> SolveValue() {
    model_.dual();
    if (absl::Status s = Optimal(); !s.ok()) return s;
    Eigen::VectorXd p = Solution();
    model_.setColumnBounds(m_, 0.0, 0.0);
    return p;
  }

  // Maximises c^T p over the maximal lotteries (warm-started primal simplex).
  absl::StatusOr<Eigen::VectorXd> Maximise(const Eigen::VectorXd& c) {
    for (int i = 0; i < m_; ++i) model_.setObjectiveCoefficient(i, c(i));
    model_.setObjectiveCoefficient(m_, 0.0);
    model_.primal();
    if (absl::Status s = Optimal(); !s.ok()) return s;
    return Solution();
  }

 private:
  absl::Status Optimal() const {
    if (model_.isProvenOptimal()) return absl::OkStatus();
    return absl::InternalError(
        absl::StrCat("Clp did not solve the maximal-lottery LP (status ", model_.status(), ")"));
  }

  Eigen::VectorXd Solution() const {
    const double* x = model_.primalColumnSolution();
    Eigen::VectorXd p(m_);
    for (int i = 0; i < m_; ++i) p(i) = std::max(0.0, x[i]);
    const double total = p.sum();
    if (total > 0.0) p /= total;
    return p;
  }

  int m_;
  ClpSimplex model_;
};

// Step 3 with a non-trivial hull: maximise -sum x log x + mu sum_j log(g_j . x) over
// x = x0 + basis y, for mu = 1, 0.1, ..., 1e-12. `g` holds the inequality rows.
Eigen::VectorXd MaximumEntropy(const Eigen::VectorXd& x0, const Eigen::MatrixXd& basis,
                               const Eigen::MatrixXd& g) {
  Eigen::VectorXd x = x0;
  auto objective = [&](const Eigen::VectorXd& z, double mu, double& value) {
    if ((z.array() <= 0.0).any()) return false;
    const Eigen::VectorXd s = g * z;
    if (s.size() > 0 && (s.array() <= 0.0).any()) return false;
    value =
        -(z.array() * z.array().log()).sum() + (s.size() > 0 ? mu * s.array().log().sum() : 0.0);
    return true;
  };
  for (double mu = 1.0; mu >= 1e-12; mu *= 0.1) {
    for (int iteration = 0; iteration < 100; ++iteration) {
      const Eigen::VectorXd s = g * x;
      Eigen::VectorXd gradient = -(x.array().log() + 1.0).matrix();
      Eigen::MatrixXd neg_hessian = x.cwiseInverse().asDiagonal();
      if (s.size() > 0) {
        const Eigen::VectorXd inv_s = s.cwiseInverse();
        gradient += mu * g.transpose() * inv_s;
        const Eigen::MatrixXd scaled = inv_s.asDiagonal() * g;
        neg_hessian += mu * scaled.transpose() * scaled;
      }
      const Eigen::VectorXd reduced_gradient = basis.transpose() * gradient;
      const Eigen::MatrixXd reduced_hessian = basis.transpose() * neg_hessian * basis;
      const Eigen::VectorXd step = reduced_hessian.ldlt().solve(reduced_gradient);
      const double decrement = reduced_gradient.dot(step);
      if (!(decrement > 1e-20)) break;
      const Eigen::VectorXd direction = basis * step;
      double current = 0.0;
      objective(x, mu, current);
      double t = 1.0, next = 0.0;
      Eigen::VectorXd candidate = x + t * direction;
      int halvings = 0;
      while ((!objective(candidate, mu, next) || next < current + 0.25 * t * decrement) &&
             halvings < 60) {
        t *= 0.5;
        candidate = x + t * direction;
        ++halvings;
      }
      if (halvings == 60) break;
      x = candidate;
      if (decrement < 1e-18) break;
    }
  }
  return x;
}

}  // namespace

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
  if (!margins.allFinite() || (margins + margins.transpose()).cwiseAbs().maxCoeff() > 0.0) {
    if (m > 0) return absl::InvalidArgumentError("margin matrix is not finite and skew-symmetric");
  }
  ExactLottery out;
  if (m == 0) return out;
  const double scale = margins.cwiseAbs().maxCoeff();
  if (scale == 0.0) {  // every lottery is maximal: the uniform one has maximum entropy
    out.lottery.assign(static_cast<size_t>(m), 1.0 / static_cast<double>(m));
    out.rating.assign(static_cast<size_t>(m), 0.0);
    out.unique = m == 1;
    return out;
  }
  const Eigen::MatrixXd a = margins / scale;
  const double tol = options.tolerance;

  // Step 1.
  MarginLp lp(a);
  absl::StatusOr<Eigen::VectorXd> first = lp.SolveValue();
  if (!first.ok()) return first.status();
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

  // Step 3 on the essential set E.
  std::vector<Eigen::Index> essential, other;
  for (Eigen::Index i = 0; i < m; ++i) (interior(i) > tol ? essential : other).push_back(i);
  const auto e = static_cast<Eigen::Index>(essential.size());
  Eigen::MatrixXd equalities(e + 1, e);
  for (Eigen::Index r = 0; r < e; ++r) {
    for (Eigen::Index c = 0; c < e; ++c) equalities(r, c) = a(essential[c], essential[r]);
  }
  equalities.row(e).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(e + 1);
  rhs(e) = 1.0;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(equalities);
  lu.setThreshold(1e-10);
  Eigen::VectorXd x(e);
  if (lu.rank() == e) {
    x = equalities.colPivHouseholderQr().solve(rhs);  // the hull is one point: polish it
  } else {
    out.unique = false;
    const Eigen::MatrixXd kernel = lu.kernel();
    const Eigen::MatrixXd basis =
        kernel.householderQr().householderQ() * Eigen::MatrixXd::Identity(e, kernel.cols());
    Eigen::MatrixXd g(static_cast<Eigen::Index>(other.size()), e);
    for (size_t r = 0; r < other.size(); ++r) {
      for (Eigen::Index c = 0; c < e; ++c) {
        g(static_cast<Eigen::Index>(r), c) = a(essential[c], other[r]);
      }
    }
    Eigen::VectorXd x0(e);
    for (Eigen::Index c = 0; c < e; ++c) x0(c) = interior(essential[c]);
    x = MaximumEntropy(x0, basis, g);
  }
  x = x.cwiseMax(0.0);
  x /= x.sum();
  Eigen::VectorXd p = Eigen::VectorXd::Zero(m);
  for (Eigen::Index c = 0; c < e; ++c) p(essential[c]) = x(c);
  const Eigen::VectorXd payoff = a * p;
  out.lottery.assign(p.data(), p.data() + m);
  out.rating.assign(payoff.data(), payoff.data() + m);
  out.exploitability = std::max(0.0, payoff.maxCoeff());
  return out;
}

}  // namespace ratings::voting
