// Permutation-averaged online Elo ([EU] §5.1 and §7, "Achieving Score
// Stability"): replay the same results in many random orders, each from fresh ratings,
// and average the final ratings, so the order the results arrived in stops mattering.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/batch/vote_set.h"
#include "ratings/elo.h"
#include "ratings/progress.h"

namespace ratings {

struct PermutedEloOptions {
  // Number of random orders N_perms. Default 100 ([EU] §7: "ideally >= 100").
  int64_t permutations = 100;
  // The online Elo of every replay (docs/MODELS.md §2 defaults: K = 32, initial 1500).
  EloOptions elo = {};
  // Seed of the shuffles (std::mt19937_64, Fisher–Yates with ratings::UniformIndex).
  uint64_t seed = 0;
};

// Mean over `permutations` shuffles of the final online-Elo ratings of votes.num_agents()
// agents. InvalidArgument if permutations < 1 or the Elo options are invalid.
// Time O(permutations * sum of k^2 over results); deterministic for a seed.
absl::StatusOr<std::vector<double>> PermutedElo(const VoteSet& votes,
                                                const PermutedEloOptions& options,
                                                const ProgressFn& progress = {});

}  // namespace ratings
