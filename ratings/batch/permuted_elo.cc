#include "ratings/batch/permuted_elo.h"

#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"
#include "ratings/status_macros.h"

namespace ratings {

absl::StatusOr<std::vector<double>> PermutedElo(const VoteSet& votes,
                                                const PermutedEloOptions& options,
                                                const ProgressFn& progress) {
  if (options.permutations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-bt: permutations must be >= 1, got ", options.permutations));
  }
  ASSIGN_OR_RETURN(Elo prototype, Elo::Create(options.elo));
  const size_t n = votes.num_agents();
  std::vector<double> mean(n, 0.0);
  std::vector<size_t> order(votes.size());
  std::mt19937_64 rng(options.seed);
  for (int64_t p = 0; p < options.permutations; ++p) {
    // A fresh shuffle of the original order each time ([EU] §5.1.1: the same
    // outcomes, reordered; ratings reset to the initial value at each permutation).
    std::iota(order.begin(), order.end(), size_t{0});
    for (size_t i = order.size(); i > 1; --i) {
      std::swap(order[i - 1], order[UniformIndex(rng, i)]);
    }
    Elo elo = prototype;
    elo.Resize(n);
    for (size_t i : order) elo.Update(votes[i]);
    for (size_t a = 0; a < n; ++a) mean[a] += elo.Rating(static_cast<AgentId>(a));
    if (progress) progress(p + 1, options.permutations);
  }
  for (double& r : mean) r /= static_cast<double>(options.permutations);
  return mean;
}

}  // namespace ratings
