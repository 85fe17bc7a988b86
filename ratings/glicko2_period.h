// One Glicko-2 rating period ([G2] steps 3-7) on the Glicko-2 scale, the arithmetic under
// ratings::Glicko2 (ratings/glicko2.h), which adds time and agents.
//
//   Glicko2Player after = Glicko2Period({.mu = 0, .phi = 1.1513, .sigma = 0.06},
//                                       games, /*tau=*/0.5);
#pragma once

#include "absl/types/span.h"

namespace ratings {

// One player on the Glicko-2 scale: μ = (r − 1500)/173.7178, φ = RD/173.7178, σ.
struct Glicko2Player {
  double mu = 0.0;
  double phi = 0.0;
  double sigma = 0.0;
};

// An opponent of one period: its μ and φ, the player's score against it (1, ½ or 0) and
// the weight that multiplies this game's terms in steps 3 and 4 (and so step 7).
struct Glicko2Game {
  double mu = 0.0;
  double phi = 0.0;
  double score = 0.0;
  double weight = 1.0;
};

// [G2] steps 3-7 for one player and one period of games (at least one, weights > 0): the
// player's μ', φ', σ'. Step 5 by the Illinois iteration to ε = 1e-6. Games whose expected
// scores are exactly 0 or 1 in floating point carry no information: with only those the
// player is returned unchanged.
Glicko2Player Glicko2Period(const Glicko2Player& player, absl::Span<const Glicko2Game> games,
                            double tau);

// g(φ) = 1/√(1 + 3φ²/π²) ([G2] step 3).
double Glicko2G(double phi);

// τ, with e^−τ computed once: the step by which step 5 walks its lower end down.
struct Glicko2Tau {
  explicit Glicko2Tau(double tau);
  double tau;
  double exp_minus_tau;
  double inverse_tau2;  // 1/τ², f's slope
};

// Steps 3 and 4's sums for one player: information = 1/v = Σ w·g²·E·(1 − E) and
// improvement = Δ/v = Σ w·g·(s − E).
struct Glicko2Sums {
  double information = 0.0;
  double improvement = 0.0;
};
Glicko2Sums Glicko2PeriodSums(const Glicko2Player& player, absl::Span<const Glicko2Game> games);

// Step 5 for one player, one secant step at a time, so that a caller can interleave the
// searches of several players (their chains of divisions and exps then overlap). Up to
// rounding this is the paper's Illinois iteration on x, rearranged so that each step takes
// one division and one exp:
// - it runs in y = x − ln σ² (A starts at 0 and f's x − a is y), carrying e^x beside each
//   end: e^x at B = −kτ is σ²·e^−kτ, and σ' = e^(A/2) is the square root of e^x at A, so
//   the only logarithm is B's when Δ² > φ² + v;
// - f is kept as a fraction over 2(φ² + v + e^x)², so that the secant step
//   C = A + (A − B)·f(A)/(f(B) − f(A)) divides once.
class Glicko2VolatilitySearch {
 public:
  // Requires sums.information > 0.
  Glicko2VolatilitySearch(const Glicko2Player& player, const Glicko2Sums& sums,
                          const Glicko2Tau& tau);
  // |B − A| ≤ ε (or an iteration bound that only NaN reaches).
  bool done() const;
  void Step();
  // σ' once done().
  double volatility() const;

 private:
  // f at y, as numerator/denominator, the denominator > 0; e^x = σ²·e^y.
  struct Fraction {
    double numerator;
    double denominator;
  };
  Fraction F(double y, double exp_x) const;

  double sigma2_;
  double phi2_v_;  // φ² + v
  double delta2_;
  double inverse_tau2_;
  double a_ = 0.0;  // A and B in y, with e^x and f at each
  double exp_a_;
  Fraction fa_;
  double b_;
  double exp_b_;
  Fraction fb_;
  int steps_ = 0;
};

// Steps 6 and 7: the player after its period, given step 5's σ'.
Glicko2Player Glicko2FinishPeriod(const Glicko2Player& player, const Glicko2Sums& sums,
                                  double volatility);

}  // namespace ratings
