// The whole-profile methods of `ratingctl rate` (docs/MODELS.md §5): elo-bt, sco-batch,
// sco-fy, each a MethodRun of input kVotes. Parameters, defaults and extra outputs:
//   elo-bt:    prior [2], anchor [1500], tolerance [1e-4], max_iterations [10000],
//              accelerate [1] (SQUAREM; 0 = plain MM), permutations [0]; with
//              permutations > 0 the permutation-averaged online Elo ([EU] §7)
//              replaces the MM fit, with k [32] and initial [1500]; ci, rounds, ties
//              (rate_intervals.h).
//   sco-batch: batch [32], iterations [10000], alpha [0.01], tau [1], min [0], max [100];
//              ci (none or bootstrap), rounds.
//   sco-fy:    batch [32], iterations [10000], alpha [0.01], epsilon [1], samples [1],
//              min [0], max [100].
// config.seed seeds the sampling. extra: params, seed, skipped_votes; elo-bt: variant ("mm"
// or "permutations"), pairs (distinct pairs seen), and for mm iterations, converged,
// last_change (and fit_seconds with ci); for permutations sem and order_agreement.
#pragma once

#include <memory>

#include "daemon/methods/method_registry.h"

namespace ratingd {

std::unique_ptr<MethodRun> MakeEloBtRun();
std::unique_ptr<MethodRun> MakeScoBatchRun();
std::unique_ptr<MethodRun> MakeScoFyRun();

}  // namespace ratingd
