#include "ratings/batch/rating_intervals.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "Eigen/Cholesky"
#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"

namespace ratings {
namespace {

// Elo points per natural-log unit of strength: r = anchor + (400 / ln 10) ln γ.
constexpr double kEloPerNat = 400.0 / std::numbers::ln10;

// The q-quantile of sorted values, interpolating linearly between order statistics (the
// default of R and numpy).
double Quantile(const std::vector<double>& sorted, double q) {
  const double h = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<size_t>(std::floor(h));
  if (below + 1 >= sorted.size()) return sorted.back();
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[below + 1] - sorted[below]);
}

}  // namespace

absl::StatusOr<std::vector<RatingInterval>> SandwichIntervals(absl::Span<const PairOutcomes> pairs,
                                                              absl::Span<const double> ratings,
                                                              const BradleyTerryOptions& options) {
  const size_t n = ratings.size();
  if (n > kMaxSandwichAgents) {
    return absl::InvalidArgumentError(absl::StrCat("ci=sandwich: ", n, " agents; at most ",
                                                   kMaxSandwichAgents,
                                                   " (dense matrices); use ci=bootstrap"));
  }
  std::vector<double> beta(n);
  for (size_t i = 0; i < n; ++i) beta[i] = (ratings[i] - options.anchor) / kEloPerNat;
  const auto size = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(size, size);
  for (const PairOutcomes& pair : pairs) {
    if (pair.a >= pair.b || pair.b >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("ci=sandwich: pair (", pair.a, ", ", pair.b, ") is not a < b < ", n));
    }
    const double p = 1 / (1 + std::exp(beta[pair.b] - beta[pair.a]));
    const double h = (pair.a_wins + pair.b_wins + pair.ties) * p * (1 - p);
    const auto a = static_cast<Eigen::Index>(pair.a);
    const auto b = static_cast<Eigen::Index>(pair.b);
    hessian(a, a) += h;
    hessian(b, b) += h;
    hessian(a, b) -= h;
    hessian(b, a) -= h;
  }
  if (options.prior > 0) {
    // The prior's virtual games against the reference (strength 1): half won, half lost.
    for (size_t i = 0; i < n; ++i) {
      const double q = 1 / (1 + std::exp(-beta[i]));
      hessian(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) +=
          options.prior * q * (1 - q);
    }
  } else if (n > 0) {
    // Strengths are defined up to a constant: the pseudo-inverse on the sum-zero subspace,
    // (H + 11ᵀ/n)⁻¹ - 11ᵀ/n, which gives the ratings relative to their mean.
    hessian.array() += 1.0 / static_cast<double>(n);
  }
  const Eigen::LLT<Eigen::MatrixXd> llt(hessian);
  if (llt.info() != Eigen::Success) {
    return absl::InvalidArgumentError(
        "ci=sandwich: the fit's Hessian is singular (with prior=0 every agent must be "
        "connected to every other through comparisons)");
  }
  Eigen::MatrixXd inverse = llt.solve(Eigen::MatrixXd::Identity(size, size));
  if (options.prior <= 0 && n > 0) inverse.array() -= 1.0 / static_cast<double>(n);
  // diag(H⁻¹ J H⁻¹) with J = Σ_pairs j (e_a - e_b)(e_a - e_b)ᵀ: per agent i,
  // Σ_pairs j (X_ia - X_ib)², X = H⁻¹. A comparison with outcome y in {1, 1/2, 0} (a won,
  // tied, lost) has score (y - p)(e_a - e_b).
  Eigen::VectorXd variance = Eigen::VectorXd::Zero(size);
  for (const PairOutcomes& pair : pairs) {
    const double p = 1 / (1 + std::exp(beta[pair.b] - beta[pair.a]));
    const double j =
        pair.a_wins * (1 - p) * (1 - p) + pair.b_wins * p * p + pair.ties * (0.5 - p) * (0.5 - p);
    const auto a = static_cast<Eigen::Index>(pair.a);
    const auto b = static_cast<Eigen::Index>(pair.b);
    variance += j * (inverse.col(a) - inverse.col(b)).cwiseAbs2();
  }
  std::vector<RatingInterval> intervals(n);
  for (size_t i = 0; i < n; ++i) {
    const double half =
        kZ95 * kEloPerNat * std::sqrt(std::max(0.0, variance[static_cast<Eigen::Index>(i)]));
    intervals[i] = {ratings[i] - half, ratings[i] + half};
  }
  return intervals;
}

absl::StatusOr<std::vector<RatingInterval>> BootstrapIntervals(size_t results,
                                                               const WeightedFit& fit,
                                                               int64_t rounds, uint64_t seed) {
  if (rounds < 2) {
    return absl::InvalidArgumentError(absl::StrCat("rounds must be >= 2, got ", rounds));
  }
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> weights(results);
  std::vector<std::vector<double>> samples;
  for (int64_t r = 0; r < rounds; ++r) {
    std::fill(weights.begin(), weights.end(), 0u);
    for (size_t i = 0; i < results; ++i) ++weights[UniformIndex(rng, results)];
    absl::StatusOr<std::vector<double>> rated = fit(weights);
    if (!rated.ok()) return rated.status();
    samples.push_back(*std::move(rated));
  }
  const size_t n = samples.front().size();
  std::vector<RatingInterval> intervals(n);
  std::vector<double> values(samples.size());
  for (size_t a = 0; a < n; ++a) {
    for (size_t r = 0; r < samples.size(); ++r) values[r] = samples[r][a];
    std::sort(values.begin(), values.end());
    intervals[a] = {Quantile(values, 0.025), Quantile(values, 0.975)};
  }
  return intervals;
}

std::vector<RankInterval> RankIntervals(absl::Span<const RatingInterval> intervals) {
  const size_t n = intervals.size();
  std::vector<double> lows(n), highs(n);
  for (size_t i = 0; i < n; ++i) {
    lows[i] = intervals[i].low;
    highs[i] = intervals[i].high;
  }
  std::sort(lows.begin(), lows.end());
  std::sort(highs.begin(), highs.end());
  std::vector<RankInterval> ranks(n);
  for (size_t i = 0; i < n; ++i) {
    const auto above = static_cast<size_t>(
        lows.end() - std::upper_bound(lows.begin(), lows.end(), intervals[i].high));
    const auto below = static_cast<size_t>(
        std::lower_bound(highs.begin(), highs.end(), intervals[i].low) - highs.begin());
    ranks[i] = {static_cast<uint32_t>(1 + above), static_cast<uint32_t>(n - below)};
  }
  return ranks;
}

}  // namespace ratings
