// Turning per-agent numbers into a ranking (docs/CONTRACTS.md §2): rank 1..n by rating descending,
// then agent name ascending; for lotteries, probability descending first. Values within a
// tolerance of each other tie (docs/MODELS.md §9), for methods whose values come from a solver.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "ratings/agent_index.h"

namespace ratings {

struct RankedAgent {
  uint32_t rank = 0;  // 1..n
  AgentId id = 0;
  double rating = 0.0;
};

// Precondition: rating.size() == index.size(). Ranks are 1..n (no shared ranks): equal
// ratings are ordered by agent name, so the order is total and deterministic.
// With tolerance > 0 (docs/MODELS.md §9): the agents sorted by rating descending are cut
// into tie groups, each the run of agents within `tolerance` of the group's first (best)
// rating, and each group is ordered by agent name. tolerance = 0 ties equal ratings only.
std::vector<RankedAgent> RankByRating(absl::Span<const double> rating, const AgentIndex& index,
                                      double tolerance = 0.0);

// Sorts `agents` (any of index's agents) as RankByRating orders them, by value[agent]
// descending, groups within `tolerance` of their first by name. Precondition: every agent
// < value.size().
void SortByValue(std::vector<AgentId>& agents, absl::Span<const double> value,
                 const AgentIndex& index, double tolerance = 0.0);

// As RankByRating, ordering by probability descending first (maximal lotteries:
// agents in the support are the winners, docs/MODELS.md §4): tie groups by probability,
// within each tie groups by rating, within those agent name, each within `tolerance`.
std::vector<RankedAgent> RankByProbabilityThenRating(absl::Span<const double> probability,
                                                     absl::Span<const double> rating,
                                                     const AgentIndex& index,
                                                     double tolerance = 0.0);

}  // namespace ratings
