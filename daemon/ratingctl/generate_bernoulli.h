// `ratingctl generate --model bernoulli` (docs/MODELS.md §8): independent pairwise
// outcomes, the synthetic human feedback of [EU] §4 and App. A.
#pragma once

#include "absl/status/statusor.h"
#include "daemon/ratingctl/generate.h"

namespace ratingd {

// Params: pairs (required, "A>B:0.75,B>C:0.51": A beats B with probability 0.75 when they
// do not draw), games [1000] per pair, tie [0] the draw probability. The results: one
// GameResult per game, game id "bernoulli-<i>", two standings ranked 1 and 2 (a draw: both
// 1), in the shuffled order. The truth: {"generator", "seed", "params", "results",
// "agents", "pairs": [{"first", "second", "p", "first_wins", "second_wins", "draws"}]}, in
// the listed order with the counts drawn; no ranking, since pairs need not be transitive.
absl::StatusOr<GeneratedFiles> GenerateBernoulli(const GenerateConfig& config);

}  // namespace ratingd
