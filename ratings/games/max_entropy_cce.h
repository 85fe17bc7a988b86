// Coarse correlated equilibria by maximum relative entropy to a target joint ([RE] §3.2,
// App. A, Eq. 8; docs/GAMES.md §4): the convex dual in α = softplus(θ) >= 0, one multiplier
// per CCE constraint (player i, deviation a'_i), minimised by Adam.
#pragma once

#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "ratings/games/normal_form_game.h"

namespace ratings::games {

struct CceOptions {
  double learning_rate = 1e-2;  // F.2: Adam's fixed step
  double epsilon = 1e-3;        // stop when every CCE violation is at most this ...
  double slackness = 1e-5;      // ... and sum α |violation| is at most this
  double initial_dual = 1e-3;   // α at the start (≈ 0: x starts at the target joint)
  // Adam's β2 (F.2 keeps the usual 0.999): with 0.99 the multipliers of slack constraints
  // fall to 0 about four times faster (docs/GAMES.md §4).
  double beta2 = 0.99;
  int64_t max_steps = 1000000;  // cap on Adam updates
  // Threads of the solve (players' contractions, halves of the joint); the result is the
  // same for any count.
  int threads = 2;
};

struct CceResult {
  std::vector<double> joint;             // x over the joint actions, in the game's order
  Profile marginals;                     // x_i per player
  std::vector<Eigen::VectorXd> ratings;  // u_i(a_i, x_{-i}) - u_i(x): the violations
  double exploitability = 0;             // the largest rating (may be negative)
  double slackness = 0;                  // sum α |violation| at the end
  int64_t steps = 0;                     // Adam updates made
  bool converged = false;                // both stopping rules hold
};

// `targets`: t_i per player (the target joint is their product), entries below 1e-12 raised
// to it. Deterministic.
CceResult SolveMaxEntropyCce(const NormalFormGame& game, const Profile& targets,
                             const CceOptions& options = {});

// The [RE] §3 ratings of a joint distribution: u_i(a_i, x_{-i}) - u_i(x), x_{-i} the
// marginal of the others.
std::vector<Eigen::VectorXd> JointRatings(const NormalFormGame& game,
                                          absl::Span<const double> joint);

}  // namespace ratings::games
