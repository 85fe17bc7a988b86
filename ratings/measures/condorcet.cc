#include "ratings/measures/condorcet.h"

#include <cstdint>

namespace ratings {

std::optional<AgentId> CondorcetWinner(size_t n, absl::Span<const PairCount> pairs) {
  // Count each agent's strict pairwise victories; a pair absent from the tally is a tie.
  std::vector<uint32_t> beaten(n, 0);
  for (const PairCount& p : pairs) {
    if (p.n_ab > p.n_ba) ++beaten[p.a];
    if (p.n_ba > p.n_ab) ++beaten[p.b];
  }
  for (size_t c = 0; c < n; ++c) {
    if (n >= 2 && beaten[c] == n - 1) return static_cast<AgentId>(c);
  }
  return std::nullopt;
}

std::vector<AgentId> WeakCondorcetWinners(size_t n, absl::Span<const PairCount> pairs) {
  // Agents never compared tie, so count the pairs each agent loses instead.
  std::vector<uint32_t> lost(n, 0);
  for (const PairCount& p : pairs) {
    if (p.n_ab < p.n_ba) ++lost[p.a];
    if (p.n_ba < p.n_ab) ++lost[p.b];
  }
  std::vector<AgentId> winners;
  for (size_t c = 0; c < n; ++c) {
    if (lost[c] == 0) winners.push_back(static_cast<AgentId>(c));
  }
  return winners;
}

}  // namespace ratings
