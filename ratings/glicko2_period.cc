#include "ratings/glicko2_period.h"

#include <cmath>
#include <numbers>

namespace ratings {
namespace {

// [G2] step 5's convergence tolerance, and a bound on its iterations that only inputs
// the model never produces (NaN) could reach.
constexpr double kEpsilon = 1e-6;
constexpr int kMaxIterations = 1000;

double Square(double x) { return x * x; }

}  // namespace

double Glicko2G(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

Glicko2Tau::Glicko2Tau(double t)
    : tau(t), exp_minus_tau(std::exp(-t)), inverse_tau2(1.0 / (t * t)) {}

Glicko2Sums Glicko2PeriodSums(const Glicko2Player& player, absl::Span<const Glicko2Game> games) {
  Glicko2Sums sums;
  for (const Glicko2Game& game : games) {
    const double g = Glicko2G(game.phi);
    const double e = 1.0 / (1.0 + std::exp(-g * (player.mu - game.mu)));
    sums.information += game.weight * g * g * e * (1.0 - e);
    sums.improvement += game.weight * g * (game.score - e);
  }
  return sums;
}

Glicko2VolatilitySearch::Glicko2VolatilitySearch(const Glicko2Player& player,
                                                 const Glicko2Sums& sums, const Glicko2Tau& tau)
    : sigma2_(player.sigma * player.sigma),
      phi2_v_(player.phi * player.phi + 1.0 / sums.information),
      delta2_(Square(sums.improvement / sums.information)),  // Δ = v·improvement
      inverse_tau2_(tau.inverse_tau2),
      exp_a_(sigma2_) {
  if (delta2_ > phi2_v_) {
    exp_b_ = delta2_ - phi2_v_;
    b_ = std::log(exp_b_ / sigma2_);
  } else {
    exp_b_ = sigma2_;
    for (int k = 1;; ++k) {
      b_ = -k * tau.tau;
      exp_b_ *= tau.exp_minus_tau;
      if (!(F(b_, exp_b_).numerator < 0) || k == kMaxIterations) break;
    }
  }
  fa_ = F(a_, exp_a_);
  fb_ = F(b_, exp_b_);
}

Glicko2VolatilitySearch::Fraction Glicko2VolatilitySearch::F(double y, double exp_x) const {
  const double d = phi2_v_ + exp_x;
  const double denominator = 2.0 * d * d;
  return {.numerator = exp_x * (delta2_ - phi2_v_ - exp_x) - denominator * y * inverse_tau2_,
          .denominator = denominator};
}

bool Glicko2VolatilitySearch::done() const {
  return !(std::abs(b_ - a_) > kEpsilon) || steps_ >= kMaxIterations;
}

void Glicko2VolatilitySearch::Step() {
  // f(A)/(f(B) − f(A)) with f(A) = a/a', f(B) = b/b': a·b'/(b·a' − a·b').
  const double ab = fa_.numerator * fb_.denominator;
  const double c = a_ + (a_ - b_) * ab / (fb_.numerator * fa_.denominator - ab);
  const double exp_c = sigma2_ * std::exp(c);
  const Fraction fc = F(c, exp_c);
  if (fc.numerator * fb_.numerator <= 0) {
    a_ = b_;
    exp_a_ = exp_b_;
    fa_ = fb_;
  } else {
    fa_.numerator /= 2.0;
  }
  b_ = c;
  exp_b_ = exp_c;
  fb_ = fc;
  ++steps_;
}

double Glicko2VolatilitySearch::volatility() const { return std::sqrt(exp_a_); }

Glicko2Player Glicko2FinishPeriod(const Glicko2Player& player, const Glicko2Sums& sums,
                                  double volatility) {
  const double phi_star2 = player.phi * player.phi + volatility * volatility;
  const double phi2 = phi_star2 / (1.0 + phi_star2 * sums.information);  // 1/(1/φ*² + 1/v)
  return {.mu = player.mu + phi2 * sums.improvement, .phi = std::sqrt(phi2), .sigma = volatility};
}

Glicko2Player Glicko2Period(const Glicko2Player& player, absl::Span<const Glicko2Game> games,
                            double tau) {
  const Glicko2Sums sums = Glicko2PeriodSums(player, games);
  // Games whose outcome was certain in floating point (E exactly 0 or 1, a gap of
  // thousands of rating points) carry no information: v would be infinite. The player is
  // then left as it was.
  if (!(sums.information > 0)) return player;
  Glicko2VolatilitySearch search(player, sums, Glicko2Tau(tau));
  while (!search.done()) search.Step();
  return Glicko2FinishPeriod(player, sums, search.volatility());
}

}  // namespace ratings
