#include "ratings/measures/kendall_tau.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace ratings {
namespace {

// Inversions of `x` (pairs i < j with x[i] > x[j]) by merge sort; sorts x.
int64_t CountInversions(std::vector<uint32_t>& x) {
  std::vector<uint32_t> buffer(x.size());
  int64_t inversions = 0;
  for (size_t width = 1; width < x.size(); width *= 2) {
    for (size_t lo = 0; lo < x.size(); lo += 2 * width) {
      const size_t mid = std::min(lo + width, x.size());
      const size_t hi = std::min(lo + 2 * width, x.size());
      size_t i = lo, j = mid, out = lo;
      while (i < mid && j < hi) {
        if (x[j] < x[i]) {
          inversions += static_cast<int64_t>(mid - i);
          buffer[out++] = x[j++];
        } else {
          buffer[out++] = x[i++];
        }
      }
      while (i < mid) buffer[out++] = x[i++];
      while (j < hi) buffer[out++] = x[j++];
    }
    std::swap(x, buffer);
  }
  return inversions;
}

}  // namespace

std::vector<uint32_t> Positions(absl::Span<const AgentId> order, size_t num_agents) {
  std::vector<uint32_t> position(num_agents, kUnranked);
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<uint32_t>(i);
  return position;
}

absl::StatusOr<int64_t> KendallTauDistance(absl::Span<const AgentId> subset,
                                           absl::Span<const AgentId> superset) {
  AgentId max_id = 0;
  for (AgentId a : superset) max_id = std::max(max_id, a);
  std::vector<uint32_t> position(superset.empty() ? 0 : size_t{max_id} + 1, kUnranked);
  for (size_t i = 0; i < superset.size(); ++i) {
    if (position[superset[i]] != kUnranked) {
      return absl::InvalidArgumentError(
          absl::StrCat("Kendall tau: agent ", superset[i], " appears twice in a ranking"));
    }
    position[superset[i]] = static_cast<uint32_t>(i);
  }
  std::vector<uint32_t> sequence;
  sequence.reserve(subset.size());
  std::vector<bool> seen(position.size(), false);
  for (AgentId a : subset) {
    if (a >= position.size() || position[a] == kUnranked) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Kendall tau: agent ", a, " of the first ranking is missing from the second"));
    }
    if (seen[a]) {
      return absl::InvalidArgumentError(
          absl::StrCat("Kendall tau: agent ", a, " appears twice in a ranking"));
    }
    seen[a] = true;
    sequence.push_back(position[a]);
  }
  return CountInversions(sequence);
}

absl::StatusOr<double> NormalisedKendallTau(absl::Span<const AgentId> subset,
                                            absl::Span<const AgentId> superset) {
  absl::StatusOr<int64_t> k = KendallTauDistance(subset, superset);
  if (!k.ok()) return k.status();
  const double n = static_cast<double>(subset.size());
  return n < 2 ? 0.0 : 2.0 * static_cast<double>(*k) / (n * (n - 1.0));
}

absl::StatusOr<int64_t> VoteKendallTau(const IndexedResult& vote,
                                       absl::Span<const uint32_t> position) {
  for (AgentId a : vote.agents) {
    if (a >= position.size() || position[a] == kUnranked) {
      return absl::InvalidArgumentError(
          absl::StrCat("Kendall tau: agent ", a, " of a result is not in the ranking"));
    }
  }
  int64_t disagreements = 0;
  for (size_t i = 0; i < vote.size(); ++i) {
    for (size_t j = i + 1; j < vote.size(); ++j) {
      if (vote.ranks[i] == vote.ranks[j]) continue;
      const bool vote_i_first = vote.ranks[i] < vote.ranks[j];
      const bool ranking_i_first = position[vote.agents[i]] < position[vote.agents[j]];
      if (vote_i_first != ranking_i_first) ++disagreements;
    }
  }
  return disagreements;
}

}  // namespace ratings
