// The tunables of the active evaluation algorithms (docs/ACTIVE.md §3), with the values
// the paper gives or, where it is silent, the reading docs/ACTIVE.md §3 states.
#pragma once

#include <cmath>
#include <cstdint>

#include "ratings/batch/bradley_terry.h"
#include "ratings/sco.h"

namespace ratings::active {

struct AlgorithmOptions {
  // BASICUCB's C (§4.1.1 "√(2Δ_s)", read as √2·Δ_s with the score range Δ_s = 100).
  double ucb_c = std::sqrt(2.0) * 100.0;
  // ε of σ' = ε/|A| + (1 - ε)σ (Table 1) and γ of the App. A bandits. Not given: 0.1.
  double exploration = 0.1;
  // PROPORTIONALREPRESENTATION's g: E must rank each agent in its top r at least
  // 1/g as often as all tasks do (not given: 5).
  int64_t prop_rep_g = 5;
  // Burn-in of §4.2 for the mean-model and growing-batch algorithms (false: none).
  bool burn_in = true;
  // ONLINEELO: K and the initial rating (not given; K = 1 is near Table 3).
  double elo_k = 1.0;
  double elo_initial = 1500.0;
  // ONLINESCO: one SCO step per sample ([SCO] App. D.4), α 0.1, τ 1, [0, 100].
  ScoOptions sco = {};
  // BATCHELO: the Bradley–Terry fit, refitted each round from the last round's ratings.
  BradleyTerryOptions bradley_terry = {};
  // BATCHSCO: minibatch steps of [SCO] Alg. 1 per round on all samples so far, warm
  // (the ratings carry over from round to round).
  int64_t sco_batch = 32;
  int64_t sco_steps = 1;
  double sco_batch_alpha = 0.01;
};

}  // namespace ratings::active
