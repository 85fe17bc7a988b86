// Kendall-tau distances between rankings ([SCO] §2.2, Def. 1-2)
// and between a ranking and one result (the per-vote term of Def. 3 and of KTD_test, §4.4).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings {

// Rankings are orders of distinct agents, best first.
//
// Def. 1 (subset form): the number of unordered pairs of agents of `subset` ordered
// differently in `subset` and in `superset`. Every agent of `subset` must appear in
// `superset` (S1 ⊆ S2); with equal sets this is the standard distance. InvalidArgument if
// an agent repeats in either order or an agent of `subset` is missing from `superset`.
// O(n log n) (inversions counted by merge sort), so it works at 53k agents.
absl::StatusOr<int64_t> KendallTauDistance(absl::Span<const AgentId> subset,
                                           absl::Span<const AgentId> superset);

// Def. 2: 2 K_d / (|S1| (|S1| - 1)), in [0, 1]; 0 when |S1| < 2. Same errors.
absl::StatusOr<double> NormalisedKendallTau(absl::Span<const AgentId> subset,
                                            absl::Span<const AgentId> superset);

// Position of each agent in `order` (0 = best) indexed by AgentId, kUnranked for the
// agents of [0, num_agents) that `order` does not hold. Precondition: ids < num_agents.
inline constexpr uint32_t kUnranked = std::numeric_limits<uint32_t>::max();
std::vector<uint32_t> Positions(absl::Span<const AgentId> order, size_t num_agents);

// K_d(v, R) of Def. 1 with S1 = the agents of the result: the pairs the result orders
// strictly (ties order nothing) that `position` orders the other way. InvalidArgument
// naming the agent id if one is unranked or beyond `position`. O(k^2).
absl::StatusOr<int64_t> VoteKendallTau(const IndexedResult& vote,
                                       absl::Span<const uint32_t> position);

}  // namespace ratings
