// The `--param`s of the game-theoretic solvers ([RE] App. F.2; docs/GAMES.md §3-4), shared
// by `ratingctl rate --method gt-ne|gt-cce` and `ratingctl game --solver ne|cce`.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "daemon/param_table.h"
#include "ratings/games/affinity_entropy.h"
#include "ratings/games/annealed_qre.h"
#include "ratings/games/max_entropy_cce.h"

namespace ratingd {

struct GameSolverParams {
  ratings::games::TargetOptions targets = {};
  ratings::games::AnnealOptions anneal = {};  // ne
  ratings::games::CceOptions cce = {};        // cce
};

// The parameters of the NE solver (`nash` true) or the CCE solver over `p`, named `method`
// in errors: selection (affinity | shannon), kernel_variance, p, epsilon, learning_rate,
// max_steps; NE: tau0, decay, steps_per_decay, anneal_threshold, tau_min, patience, threads; CCE:
// slackness, initial_dual, threads. Each value is checked for its range when it is applied.
ParamTable GameSolverParamTable(std::string method, bool nash, GameSolverParams& p);

// One solve, whichever solver: the targets of p.targets, then SolveAnnealedQre (`nash`) or
// SolveMaxEntropyCce, in the shape both commands print.
struct GameSolution {
  ratings::games::Profile mass = {};          // NE strategies or CCE marginals
  std::vector<Eigen::VectorXd> ratings = {};  // regrets per player and action
  double exploitability = 0;
  int64_t steps = 0;
  bool converged = false;
  // NE: tau, loss, forced_decays; CCE: slackness.
  std::vector<std::pair<std::string, double>> figures = {};
};
GameSolution SolveGame(const ratings::games::NormalFormGame& game, bool nash,
                       const GameSolverParams& p);

}  // namespace ratingd
