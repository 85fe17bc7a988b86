#include "ratings/voting/exact_lottery.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

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
    // Tighter than Clp's 1e-7 defaults: the support is read off the solution at 1e-9.
    model_.setPrimalTolerance(1e-10);
    model_.setDualTolerance(1e-10);
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

// Newton's method for max -sum x log x + mu sum_j log(g_j . x) over x + basis y, from a
// point with x > 0 and g x > 0 (g may be empty, mu may be 0).
Eigen::VectorXd NewtonEntropy(Eigen::VectorXd x, const Eigen::MatrixXd& basis,
                              const Eigen::MatrixXd& g, double mu) {
  auto objective = [&](const Eigen::VectorXd& z, double& value) {
    if ((z.array() <= 0.0).any()) return false;
    const Eigen::VectorXd s = g * z;
    if (s.size() > 0 && (s.array() <= 0.0).any()) return false;
    value =
        -(z.array() * z.array().log()).sum() + (s.size() > 0 ? mu * s.array().log().sum() : 0.0);
    return true;
  };
  for (int iteration = 0; iteration < 100; ++iteration) {
    Eigen::VectorXd gradient = -(x.array().log() + 1.0).matrix();
    Eigen::MatrixXd neg_hessian = x.cwiseInverse().asDiagonal();
    if (g.rows() > 0 && mu > 0.0) {
      const Eigen::VectorXd inv_s = (g * x).cwiseInverse();
      gradient += mu * g.transpose() * inv_s;
      const Eigen::MatrixXd scaled = inv_s.asDiagonal() * g;
      neg_hessian += mu * scaled.transpose() * scaled;
    }
    const Eigen::VectorXd reduced_gradient = basis.transpose() * gradient;
    const Eigen::MatrixXd reduced_hessian = basis.transpose() * neg_hessian * basis;
    const Eigen::VectorXd step = reduced_hessian.ldlt().solve(reduced_gradient);
    const double decrement = reduced_gradient.dot(step);
    const Eigen::VectorXd direction = basis * step;
    // Run to rounding: near the optimum the decrement is ~1e-25 while x is still off by
    // ~1e-13, enough to order agents that should tie.
    if (!(decrement > 0.0) || direction.cwiseAbs().maxCoeff() < 1e-17) break;
    double current = 0.0, next = 0.0;
    objective(x, current);
    double t = 1.0;
    Eigen::VectorXd candidate = x + direction;
    int halvings = 0;
    // Armijo, with a little slack for rounding once the decrement is tiny.
    while ((!objective(candidate, next) || next < current + 0.25 * t * decrement - 1e-15) &&
           halvings < 60) {
      t *= 0.5;
      candidate = x + t * direction;
      ++halvings;
    }
    if (halvings == 60) break;
    x = candidate;
  }
  return x;
}

// An orthonormal basis of the null space of `a`, or an empty matrix if it is {0}.
Eigen::MatrixXd NullSpace(const Eigen::MatrixXd& a) {
  Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
  lu.setThreshold(1e-10);
  if (lu.rank() == a.cols()) return Eigen::MatrixXd(a.cols(), 0);
  const Eigen::MatrixXd kernel = lu.kernel();
  return kernel.householderQr().householderQ() * Eigen::MatrixXd::Identity(a.cols(), kernel.cols());
}

// Step 3 with a non-trivial hull: the barrier path mu = 1, 0.1, ..., 1e-12, then a polish
// on the face where the inequalities active at the end hold as equalities, without a
// barrier, so the result is accurate to rounding (agents in the same situation then get
// the same probability up to the last bits).
Eigen::VectorXd MaximumEntropy(const Eigen::VectorXd& x0, const Eigen::MatrixXd& equalities,
                               const Eigen::VectorXd& rhs, const Eigen::MatrixXd& g) {
  Eigen::VectorXd x = x0;
  const Eigen::MatrixXd basis = NullSpace(equalities);
  for (double mu = 1.0; mu >= 1e-12; mu *= 0.1) x = NewtonEntropy(x, basis, g, mu);

  const Eigen::VectorXd s = g * x;
  std::vector<Eigen::Index> active;
  for (Eigen::Index j = 0; j < s.size(); ++j) {
    if (s(j) <= 1e-7) active.push_back(j);
  }
  Eigen::MatrixXd face(equalities.rows() + static_cast<Eigen::Index>(active.size()), x.size());
  face.topRows(equalities.rows()) = equalities;
  Eigen::VectorXd face_rhs = Eigen::VectorXd::Zero(face.rows());
  face_rhs.head(rhs.size()) = rhs;
  for (size_t r = 0; r < active.size(); ++r) {
    face.row(equalities.rows() + static_cast<Eigen::Index>(r)) = g.row(active[r]);
  }
  const Eigen::MatrixXd face_basis = NullSpace(face);
  // Back onto the face (the barrier left the active slacks at ~1e-12).
  const Eigen::VectorXd corrected = x - face.colPivHouseholderQr().solve(face * x - face_rhs);
  if ((corrected.array() <= 0.0).any()) return x;
  if (face_basis.cols() == 0) return corrected;
  return NewtonEntropy(corrected, face_basis, Eigen::MatrixXd(0, x.size()), 0.0);
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
    Eigen::MatrixXd g(static_cast<Eigen::Index>(other.size()), e);
    for (size_t r = 0; r < other.size(); ++r) {
      for (Eigen::Index c = 0; c < e; ++c) {
        g(static_cast<Eigen::Index>(r), c) = a(essential[c], other[r]);
      }
    }
    Eigen::VectorXd x0(e);
    for (Eigen::Index c = 0; c < e; ++c) x0(c) = interior(essential[c]);
    x = MaximumEntropy(x0, equalities, rhs, g);
  }
  x = x.cwiseMax(0.0);
  x /= x.sum();
  // Reported to 12 decimals: equal probabilities (symmetric agents, docs/MODELS.md §6) are then
  // bit-identical, so ties in the ranking break by agent id, not by rounding noise.
  x = (x * 1e12).array().round() / 1e12;
  Eigen::VectorXd p = Eigen::VectorXd::Zero(m);
  for (Eigen::Index c = 0; c < e; ++c) p(essential[c]) = x(c);
  // Guard: should the support have been misread (a solver tolerance above `tol`), the
  // LPs' own average is maximal to their accuracy; keep whichever is more exact.
  if ((a * p).maxCoeff() > 1e-9 && (a * interior).maxCoeff() < (a * p).maxCoeff()) {
    p = (interior * 1e12).array().round() / 1e12;
  }
  const Eigen::VectorXd payoff = a * p;
  out.lottery.assign(p.data(), p.data() + m);
  out.rating.assign(payoff.data(), payoff.data() + m);
  out.exploitability = std::max(0.0, payoff.maxCoeff());
  return out;
}

}  // namespace ratings::voting
