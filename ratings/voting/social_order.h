// What the deterministic voting rules return, and the tie-break they share
// ([VasE], appendix "Voting Methods used in the Applications").
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings::voting {

// A rule's social welfare function (its order, best first, every agent once) and the
// score the paper's appendix defines for it, indexed by AgentId.
struct SocialOrder {
  std::vector<AgentId> order = {};
  std::vector<double> score = {};
};

// Deterministic tie-break shared by every rule: priority[a] < priority[b] means a wins a
// tie against b. The daemon passes the rank of each agent's name in ascending order (so
// ties go to the alphabetically first agent, as in every ranking, docs/CONTRACTS.md §2);
// size = number of agents.
using Priority = absl::Span<const uint32_t>;

// The identity priority 0, 1, ..., n-1 (ties go to the lower AgentId).
std::vector<uint32_t> IdentityPriority(size_t n);

// Agents by score descending, ties by priority. Precondition: sizes equal.
std::vector<AgentId> OrderByScore(absl::Span<const double> score, Priority priority);

}  // namespace ratings::voting
