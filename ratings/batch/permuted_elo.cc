#include "ratings/batch/permuted_elo.h"

#include <cmath>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"
#include "ratings/status_macros.h"

namespace ratings {

absl::StatusOr<std::vector<std::vector<double>>> PermutedEloFinals(
    const VoteSet& votes, const PermutedEloOptions& options, const ProgressFn& progress) {
  if (options.permutations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-bt: permutations must be >= 1, got ", options.permutations));
  }
  if (!options.shuffle && options.permutations != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "permutations must be 1 to replay the given order, got ", options.permutations));
  }
  ASSIGN_OR_RETURN(Elo prototype, Elo::Create(options.elo));
  const size_t n = votes.num_agents();
  std::vector<std::vector<double>> finals;
  finals.reserve(static_cast<size_t>(options.permutations));
  std::vector<size_t> order(votes.size());
  std::mt19937_64 rng(options.seed);
  for (int64_t p = 0; p < options.permutations; ++p) {
    // A fresh shuffle of the original order each time ([EU] §5.1.1: the same
    // outcomes, reordered; ratings reset to the initial value at each permutation).
    std::iota(order.begin(), order.end(), size_t{0});
    if (options.shuffle) {
      for (size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1], order[UniformIndex(rng, i)]);
      }
    }
    Elo elo = prototype;
    elo.Resize(n);
    for (size_t i : order) elo.Update(votes[i]);
    std::vector<double>& final_ratings = finals.emplace_back(n);
    for (size_t a = 0; a < n; ++a) final_ratings[a] = elo.Rating(static_cast<AgentId>(a));
    if (progress) progress(p + 1, options.permutations);
  }
  return finals;
}

absl::StatusOr<std::vector<double>> PermutedElo(const VoteSet& votes,
                                                const PermutedEloOptions& options,
                                                const ProgressFn& progress) {
  ASSIGN_OR_RETURN(const std::vector<std::vector<double>> finals,
                   PermutedEloFinals(votes, options, progress));
  return SummarizePermutations(finals).mean;
}

PermutationSummary SummarizePermutations(absl::Span<const std::vector<double>> finals) {
  const size_t n = finals.front().size();
  const auto replays = static_cast<double>(finals.size());
  PermutationSummary summary{.mean = std::vector<double>(n, 0.0),
                             .sem = std::vector<double>(n, 0.0)};
  for (const std::vector<double>& row : finals) {
    for (size_t a = 0; a < n; ++a) summary.mean[a] += row[a];
  }
  for (double& m : summary.mean) m /= replays;
  if (finals.size() < 2) return summary;
  // Two passes: the squared deviations from the mean, not from a running estimate.
  for (const std::vector<double>& row : finals) {
    for (size_t a = 0; a < n; ++a) {
      const double d = row[a] - summary.mean[a];
      summary.sem[a] += d * d;
    }
  }
  for (double& s : summary.sem) s = std::sqrt(s / (replays - 1) / replays);
  return summary;
}

double OrderAgreement(absl::Span<const std::vector<double>> finals, AgentId above, AgentId below) {
  size_t agree = 0;
  for (const std::vector<double>& row : finals) {
    if (row[above] > row[below]) ++agree;
  }
  return static_cast<double>(agree) / static_cast<double>(finals.size());
}

}  // namespace ratings
