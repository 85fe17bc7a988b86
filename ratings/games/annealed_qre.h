// Nash equilibria by annealed quantal response ([RE] §3.2, Eq. 3-4, App. F.2; docs/GAMES.md
// §3): minimise the QRE loss at temperature τ with Adam, lower τ whenever the loss is
// small, and stop at an ε-Nash equilibrium of the unregularised game.
#pragma once

#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "ratings/games/normal_form_game.h"

namespace ratings::games {

struct AnnealOptions {
  double tau0 = 1.0;    // F.2: initial temperature
  double decay = 0.95;  // F.2: τ <- decay * τ ...
  // F.2: ... checked every this many Adam updates (F.2: 250; docs/GAMES.md §3 on why 25) ...
  int64_t steps_per_decay = 25;
  double anneal_threshold = 1e-5;  // F.2: ... when the loss L^τ(x) is at most this
  // F.2 ends the schedule at 1e-2, where a logit equilibrium can still be a few 1e-3
  // exploitable; annealing goes on below it by the same rule, down to this (docs/GAMES.md §3).
  double tau_min = 1e-4;
  double epsilon = 1e-3;        // F.2: stop at an ε-NE (largest regret over players)
  double learning_rate = 1e-2;  // F.2: Adam's fixed step
  // Not in F.2: the loss is not convex, and Adam can settle at a stationary point above the
  // threshold, where F.2's rule would wait forever. After this many checks at one τ without
  // reaching it, τ is lowered anyway (counted in NashResult::forced_decays; docs/GAMES.md §3).
  int64_t patience = 8;
  int64_t max_steps = 1000000;  // cap on Adam updates
  // Threads of the solve (the players' contractions in parallel); the result is the same
  // for any count.
  int threads = 2;
};

struct NashResult {
  Profile strategies;                    // x_i per player
  std::vector<Eigen::VectorXd> ratings;  // [RE] §3: u_i(a_i, x_{-i}) - u_i(x) per action
  double exploitability = 0;             // max over players and actions of the ratings
  double loss = 0;                       // L^τ(x) at the end
  double tau = 0;                        // the temperature at the end
  int64_t steps = 0;                     // Adam updates made
  int64_t forced_decays = 0;             // τ lowered with the loss above the threshold
  bool converged = false;                // exploitability <= epsilon
};

// `targets`: t_i per player, positive (entries below 1e-12 are raised to it), summing to 1
// (affinity_entropy.h). Starts at x = t. Deterministic.
NashResult SolveAnnealedQre(const NormalFormGame& game, const Profile& targets,
                            const AnnealOptions& options = {});

// L^τ(x) of [RE] Eq. 4 at x = softmax(logits) for the given targets, and, if `gradient` is
// given, its gradient with respect to the logits (what SolveAnnealedQre descends).
double QreLoss(const NormalFormGame& game, const Profile& targets, const Profile& logits,
               double tau, Profile* gradient = nullptr);

// The [RE] §3 ratings of a product profile: u_i(a_i, x_{-i}) - u_i(x).
std::vector<Eigen::VectorXd> ProfileRatings(const NormalFormGame& game, const Profile& x);

}  // namespace ratings::games
