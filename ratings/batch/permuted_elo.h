// Permutation-averaged online Elo ([EU] §5.1 and §7, "Achieving Score
// Stability"): replay the same results in many random orders, each from fresh ratings,
// and average the final ratings, so the order the results arrived in stops mattering;
// with the spread over orders, which says how much it still does (docs/MODELS.md §5.2).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
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
  // false: one replay in the given order, no shuffle ([EU] §5's N_perms = 1, the baseline
  // sequence); then permutations must be 1.
  bool shuffle = true;
};

// The final online-Elo ratings of votes.num_agents() agents after each replay:
// finals[p][agent]. InvalidArgument if permutations < 1, if shuffle is false and
// permutations is not 1, or if the Elo options are invalid. Time O(permutations * sum of
// k^2 over results), memory O(permutations * agents); deterministic for a seed.
absl::StatusOr<std::vector<std::vector<double>>> PermutedEloFinals(
    const VoteSet& votes, const PermutedEloOptions& options, const ProgressFn& progress = {});

// The mean of PermutedEloFinals per agent.
absl::StatusOr<std::vector<double>> PermutedElo(const VoteSet& votes,
                                                const PermutedEloOptions& options,
                                                const ProgressFn& progress = {});

// Per agent: the mean over replays and its standard error, the sample standard deviation
// (n - 1 in the denominator) over sqrt(n); 0 for a single replay, whose spread is unknown.
struct PermutationSummary {
  std::vector<double> mean;
  std::vector<double> sem;
};
// Precondition: finals is non-empty and every row has the same length.
PermutationSummary SummarizePermutations(absl::Span<const std::vector<double>> finals);

// The fraction of replays whose final rating puts `above` strictly higher than `below`
// (a replay that ends them exactly level does not order them).
double OrderAgreement(absl::Span<const std::vector<double>> finals, AgentId above, AgentId below);

}  // namespace ratings
