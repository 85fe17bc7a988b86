// Equilibrium selection by affinity entropy ([RE] §3.3, Def. 1, App. B; docs/GAMES.md §2):
// each player's target strategy t_i maximises an entropy that counts clones (actions with the
// same payoffs whatever the others do) as one action, so that copying an action cannot
// attract mass towards it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "Eigen/Core"
#include "ratings/games/normal_form_game.h"

namespace ratings::games {

// [RE] Eq. 6: D(α, β) = mean over the others' pure joint actions of
// (u_i(α, a_{-i}) - u_i(β, a_{-i}))^2; zero exactly for clones.
Eigen::MatrixXd StrategicDissimilarity(const NormalFormGame& game, size_t player);

// [RE] Eq. 7: K = exp(-D / (2σ)^2) with σ^2 = `variance` (App. F.2: 1e-6), as printed.
Eigen::MatrixXd RbfKernel(const Eigen::MatrixXd& dissimilarity, double variance);

// [RE] Eq. 5: U^(p) = K Λ_p^{-1}, Λ_p the diagonal of the columns' (p+1)-norms.
Eigen::MatrixXd AffinityMatrix(const Eigen::MatrixXd& kernel, double p);

// [RE] Eq. 5 / Eq. 9: H(x) = (1/p) [1 - sum_j ((U x)_j)^(p+1)], for p in (0, 1].
double AffinityEntropy(const Eigen::MatrixXd& affinity, const Eigen::VectorXd& x, double p);

// [RE] Eq. 16: dH/dx = -((p+1)/p) U^T (U x)^p.
Eigen::VectorXd AffinityEntropyGradient(const Eigen::MatrixXd& affinity, const Eigen::VectorXd& x,
                                        double p);

struct MaxEntropyOptions {
  double tolerance = 1e-12;  // stop when the step moves x by less (max norm)
  int64_t max_iterations = 100000;
  // U is kept sparse when at most this share of its entries are normal numbers (the others:
  // 0, or subnormal and read as 0); the same iterations then cost its nonzeros.
  double sparse_share = 0.25;
};

// argmax_x H(x) over the simplex, from the uniform strategy. [RE] uses Adam (lr 1e-2); this
// solves the same concave problem by accelerated projected gradient to `tolerance`
// (docs/GAMES.md §2), since a fixed-step optimiser hovers around the maximiser and an
// inexact target breaks exact clone invariance. Exact clones keep equal masses: every
// step treats equal coordinates alike.
Eigen::VectorXd MaximiseAffinityEntropy(const Eigen::MatrixXd& affinity, double p,
                                        const MaxEntropyOptions& options = {});

// How each player's target is chosen: affinity entropy ([RE] §3.3) or the uniform strategy
// (Shannon entropy's maximiser: the NE(-a) / CCE(-a) ablations of [RE] §4.2).
enum class Selection { kAffinity, kShannon };

struct TargetOptions {
  Selection selection = Selection::kAffinity;
  double kernel_variance = 1e-6;  // σ^2 of Eq. 7
  double p = 1.0;                 // entropic index of Eq. 5
};

// One target strategy per player.
Profile Targets(const NormalFormGame& game, const TargetOptions& options);

}  // namespace ratings::games
