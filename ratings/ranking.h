// Turning per-agent numbers into a ranking (docs/CONTRACTS.md §2): rank 1..n by rating descending,
// then agent id ascending; for lotteries, probability descending first.
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
// ratings are ordered by agent id, so the order is total and deterministic.
std::vector<RankedAgent> RankByRating(absl::Span<const double> rating, const AgentIndex& index);

// As RankByRating, ordering by probability descending first (maximal lotteries:
// agents in the support are the winners, docs/MODELS.md §4).
std::vector<RankedAgent> RankByProbabilityThenRating(absl::Span<const double> probability,
                                                     absl::Span<const double> rating,
                                                     const AgentIndex& index);

}  // namespace ratings
