// `ratingctl generate --model drift` (docs/MODELS.md §8): two-player results whose true
// skills walk, with agents coming and going, every result at an event time.
#pragma once

#include "absl/status/statusor.h"
#include "daemon/ratingctl/generate.h"

namespace ratingd {

// Params (ratings/generators/drift.h): agents [40], active [10], results [10000], per_day
// [20], walk [40], skill_std [200], churn [0.1]. The results: game id "drift-<i>", the
// winner ranked 1 and the loser 2, event_time from 2024-01-01T00:00:00Z. The truth:
// {"generator", "seed", "params", "results", "agents", "ranking" (by final skill, then
// name), "ratings" (name -> final skill, Elo points around 0)}.
absl::StatusOr<GeneratedFiles> GenerateDriftFiles(const GenerateConfig& config);

}  // namespace ratingd
