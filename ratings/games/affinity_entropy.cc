#include "ratings/games/affinity_entropy.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "Eigen/SparseCore"
#include "ratings/games/flush_denormals.h"

namespace ratings::games {
namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Row a: player's payoffs u_i(a, a_{-i}) over the others' joint actions (in tensor order).
RowMajor PayoffRows(const NormalFormGame& game, size_t player) {
  size_t outer = 1;
  size_t inner = 1;
  for (size_t j = 0; j < player; ++j) outer *= game.actions[j];
  for (size_t j = player + 1; j < game.players(); ++j) inner *= game.actions[j];
  const size_t n = game.actions[player];
  RowMajor rows(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(outer * inner));
  const std::vector<double>& u = game.payoffs[player];
  for (size_t a = 0; a < n; ++a) {
    for (size_t o = 0; o < outer; ++o) {
      std::copy_n(u.begin() + static_cast<std::ptrdiff_t>((o * n + a) * inner), inner,
                  rows.row(static_cast<Eigen::Index>(a)).data() + o * inner);
    }
  }
  return rows;
}

// Euclidean projection onto the probability simplex (sort-based). Equal coordinates stay
// equal: one threshold is subtracted from all of them.
Eigen::VectorXd ProjectToSimplex(const Eigen::VectorXd& v) {
  std::vector<double> sorted(v.data(), v.data() + v.size());
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  double sum = 0;
  double threshold = 0;
  for (size_t j = 0; j < sorted.size(); ++j) {
    sum += sorted[j];
    const double candidate = (sum - 1.0) / static_cast<double>(j + 1);
    if (sorted[j] - candidate > 0) threshold = candidate;
  }
  return (v.array() - threshold).max(0.0).matrix();
}

// sum_j (ux_j)^(p+1) of ux = U x: what maximising H minimises. p = 1 (the default)
// squares without pow: x^2 is exact, as pow's result is.
double PowerOf(const Eigen::VectorXd& ux, double p) {
  return p == 1.0 ? ux.array().max(0.0).square().sum() : ux.array().max(0.0).pow(p + 1).sum();
}

}  // namespace

Eigen::MatrixXd StrategicDissimilarity(const NormalFormGame& game, size_t player) {
  const RowMajor rows = PayoffRows(game, player);
  const Eigen::Index n = rows.rows();
  const double others = static_cast<double>(rows.cols());
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(n, n);
  // Row differences, not a Gram matrix: clones (bit-identical rows) get exactly 0, and
  // every clone gets bit-identical distances to everything else.
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = a + 1; b < n; ++b) {
      const double value = (rows.row(a) - rows.row(b)).squaredNorm() / others;
      d(a, b) = value;
      d(b, a) = value;
    }
  }
  return d;
}

Eigen::MatrixXd RbfKernel(const Eigen::MatrixXd& dissimilarity, double variance) {
  return (-dissimilarity.array() / (4.0 * variance)).exp().matrix();
}

Eigen::MatrixXd AffinityMatrix(const Eigen::MatrixXd& kernel, double p) {
  const Eigen::RowVectorXd norms =
      kernel.array().pow(p + 1).colwise().sum().pow(1.0 / (p + 1)).matrix();
  return kernel * norms.cwiseInverse().asDiagonal();
}

double AffinityEntropy(const Eigen::MatrixXd& affinity, const Eigen::VectorXd& x, double p) {
  return (1.0 - PowerOf(affinity * x, p)) / p;
}

Eigen::VectorXd AffinityEntropyGradient(const Eigen::MatrixXd& affinity, const Eigen::VectorXd& x,
                                        double p) {
  const Eigen::VectorXd ux = (affinity * x).array().max(0.0).pow(p).matrix();
  return -((p + 1) / p) * (affinity.transpose() * ux);
}

namespace {

// FISTA with backtracking and adaptive restart on f(x) = sum (Ux)^(p+1) = p (1/p - H),
// from the uniform strategy, for U dense or sparse. Each point's product with U is computed
// once: y's from x's and next's (y is their linear combination), so an iteration costs two
// products with U, not four.
template <typename Matrix>
Eigen::VectorXd Fista(const Matrix& affinity, double p, const MaxEntropyOptions& options) {
  const Eigen::Index n = affinity.cols();
  Eigen::VectorXd x = Eigen::VectorXd::Constant(n, 1.0 / static_cast<double>(n));
  const auto f = [&](const Eigen::VectorXd& uz) { return PowerOf(uz, p); };
  // p = 1 without pow: x^1 is exact, as pow's result is.
  const auto grad = [&](const Eigen::VectorXd& uz) {
    const Eigen::VectorXd powered =
        p == 1.0 ? uz.cwiseMax(0.0) : uz.array().max(0.0).pow(p).matrix().eval();
    return ((p + 1) * (affinity.transpose() * powered)).eval();
  };
  Eigen::VectorXd ux = affinity * x;
  Eigen::VectorXd y = x;
  Eigen::VectorXd uy = ux;
  double t = 1.0;
  double lipschitz = 1.0;
  double fx = f(ux);
  for (int64_t k = 0; k < options.max_iterations; ++k) {
    const Eigen::VectorXd g = grad(uy);
    const double fy = f(uy);
    Eigen::VectorXd next;
    Eigen::VectorXd unext;
    double fnext = 0;
    for (int halvings = 0; halvings < 200; ++halvings) {
      next = ProjectToSimplex(y - g / lipschitz);
      unext = affinity * next;
      fnext = f(unext);
      const Eigen::VectorXd step = next - y;
      if (fnext <= fy + g.dot(step) + 0.5 * lipschitz * step.squaredNorm() + 1e-15) break;
      lipschitz *= 2;
    }
    const double moved = (next - x).cwiseAbs().maxCoeff();
    if (fnext > fx && t > 1.0) {  // the momentum overshot: restart it from x
      t = 1.0;
      y = x;
      uy = ux;
      continue;
    }
    const double t_next = (1 + std::sqrt(1 + 4 * t * t)) / 2;
    const double beta = (t - 1) / t_next;
    y = next + beta * (next - x);
    uy = unext + beta * (unext - ux);
    t = t_next;
    x = std::move(next);
    ux = std::move(unext);
    fx = fnext;
    if (moved < options.tolerance) break;
  }
  return x;
}

}  // namespace

Eigen::VectorXd MaximiseAffinityEntropy(const Eigen::MatrixXd& affinity, double p,
                                        const MaxEntropyOptions& options) {
  const Eigen::Index n = affinity.cols();
  if (n == 1) return Eigen::VectorXd::Ones(1);
  // The affinity's entries far from the diagonal are e^(-d / 4σ²) of distances thousands of
  // times σ²: many are subnormal or become so in products, and every operation on a
  // subnormal takes a microcode assist (on the exact 500 × 17 king-of-the-hill files these
  // iterations took 150 s instead of 2 s). Flushed to zero they change nothing above 1e-308.
  const ScopedFlushDenormals flush;
  // Most of them are 0 or subnormal (read as 0): unless actions are alike in bulk, U is
  // sparse, and its products cost its nonzeros. Exact clones still get bit-identical
  // masses: their rows and columns are equal, and are summed in the same order.
  const auto nonzeros = (affinity.array().abs() >= std::numeric_limits<double>::min()).count();
  if (static_cast<double>(nonzeros) > options.sparse_share * static_cast<double>(n * n)) {
    return Fista(affinity, p, options);
  }
  Eigen::SparseMatrix<double, Eigen::RowMajor> sparse =
      affinity.sparseView(std::numeric_limits<double>::min(), 1.0);
  sparse.makeCompressed();
  return Fista(sparse, p, options);
}

Profile Targets(const NormalFormGame& game, const TargetOptions& options) {
  if (options.selection == Selection::kShannon) return UniformProfile(game);
  Profile targets;
  for (size_t i = 0; i < game.players(); ++i) {
    const Eigen::MatrixXd kernel =
        RbfKernel(StrategicDissimilarity(game, i), options.kernel_variance);
    targets.push_back(MaximiseAffinityEntropy(AffinityMatrix(kernel, options.p), options.p));
  }
  return targets;
}

}  // namespace ratings::games
