// Top-k ranking errors of [AE] §3.1: identification error (Def. 3.1),
// generalized top-k ranking error GRE (Def. 3.2) and its average over rounds, AGRE
// (Def. 3.3). Rankings are orders of distinct agents, best first, over the same set A.
#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings {

// IDE = 1 - |top_k(ranking) ∩ top_k(truth)| / k. InvalidArgument unless the two orders
// are permutations of the same agents and 1 <= k <= m.
absl::StatusOr<double> TopKIdentificationError(absl::Span<const AgentId> ranking,
                                               absl::Span<const AgentId> truth, size_t k);

// GRE = alpha(k) IDE + (1 - alpha(k)) K_n(ranking_{k*}, truth_[k]), alpha(k) = (m-k)/(m-1),
// where ranking_{k*} is the order `ranking` gives to the top-k agents of `truth`. For
// m = 1 it is 0. Same errors.
absl::StatusOr<double> GeneralizedTopKError(absl::Span<const AgentId> ranking,
                                            absl::Span<const AgentId> truth, size_t k);

// AGRE: the mean GRE of the rankings of rounds 1..T. InvalidArgument if there are none,
// or as GRE.
absl::StatusOr<double> AverageGeneralizedTopKError(
    const std::vector<std::vector<AgentId>>& rankings, absl::Span<const AgentId> truth, size_t k);

}  // namespace ratings
