#include "ratings/voting/max_entropy_strategy.h"

#include <vector>

#include "Eigen/Cholesky"
#include "Eigen/LU"
#include "Eigen/QR"

namespace ratings::voting {
namespace {

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
    // ~1e-13, enough to order strategies that should tie.
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

// A non-trivial hull: the barrier path mu = 1, 0.1, ..., 1e-12, then a polish on the face
// where the inequalities active at the end hold as equalities, without a barrier, so the
// result is accurate to rounding (strategies in the same situation then get the same
// probability up to the last bits).
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

Eigen::VectorXd Round12(const Eigen::VectorXd& x) { return (x * 1e12).array().round() / 1e12; }

// How far x falls short of guaranteeing `value`.
double Shortfall(const Eigen::MatrixXd& a, double value, const Eigen::VectorXd& x) {
  return value - (a.transpose() * x).minCoeff();
}

}  // namespace

MaxEntropyStrategy MaximiseEntropy(const Eigen::MatrixXd& a, double value,
                                   const Eigen::VectorXd& interior,
                                   const std::vector<bool>& essential,
                                   const std::vector<bool>& opponent_essential) {
  std::vector<Eigen::Index> own, tight, loose;
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    if (essential[static_cast<size_t>(i)]) own.push_back(i);
  }
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    (opponent_essential[static_cast<size_t>(j)] ? tight : loose).push_back(j);
  }
  const auto e = static_cast<Eigen::Index>(own.size());
  const auto t = static_cast<Eigen::Index>(tight.size());
  // Rows (a(., j) - value) x = 0 for the tight j (with sum x = 1, (a^T x)_j = value).
  Eigen::MatrixXd equalities(t + 1, e);
  for (Eigen::Index r = 0; r < t; ++r) {
    for (Eigen::Index c = 0; c < e; ++c) equalities(r, c) = a(own[c], tight[r]) - value;
  }
  equalities.row(t).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(t + 1);
  rhs(t) = 1.0;
  MaxEntropyStrategy out;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(equalities);
  lu.setThreshold(1e-10);
  Eigen::VectorXd x(e);
  if (lu.rank() == e) {
    x = equalities.colPivHouseholderQr().solve(rhs);  // the hull is one point: polish it
  } else {
    out.unique = false;
    Eigen::MatrixXd g(static_cast<Eigen::Index>(loose.size()), e);
    for (size_t r = 0; r < loose.size(); ++r) {
      for (Eigen::Index c = 0; c < e; ++c) {
        g(static_cast<Eigen::Index>(r), c) = a(own[c], loose[r]) - value;
      }
    }
    Eigen::VectorXd x0(e);
    for (Eigen::Index c = 0; c < e; ++c) x0(c) = interior(own[c]);
    x = MaximumEntropy(x0, equalities, rhs, g);
  }
  x = x.cwiseMax(0.0);
  x = Round12(x / x.sum());
  out.strategy = Eigen::VectorXd::Zero(a.rows());
  for (Eigen::Index c = 0; c < e; ++c) out.strategy(own[c]) = x(c);
  // Guard: should the support have been misread (a solver tolerance above the caller's),
  // the LPs' own average is optimal to their accuracy; keep whichever is more exact.
  const double shortfall = Shortfall(a, value, out.strategy);
  if (shortfall > 1e-9 && Shortfall(a, value, interior) < shortfall) {
    out.strategy = Round12(interior);
  }
  return out;
}

}  // namespace ratings::voting
