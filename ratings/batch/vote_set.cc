#include "ratings/batch/vote_set.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"

namespace ratings {

void VoteSet::Add(const IndexedResult& result) {
  agents_.insert(agents_.end(), result.agents.begin(), result.agents.end());
  ranks_.insert(ranks_.end(), result.ranks.begin(), result.ranks.end());
  // Positions by rank, ties in the order given: a stable insertion sort, O(k) on votes
  // given best first (the usual case) and free of allocation for k <= 16.
  const size_t k = result.size();
  absl::InlinedVector<uint32_t, 16> order(k);
  for (size_t i = 0; i < k; ++i) {
    size_t j = i;
    while (j > 0 && result.ranks[order[j - 1]] > result.ranks[i]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = static_cast<uint32_t>(i);
  }
  uint32_t dense = 1;
  for (size_t i = 0; i < k; ++i) {
    if (i > 0 && result.ranks[order[i]] != result.ranks[order[i - 1]]) ++dense;
    best_first_agents_.push_back(result.agents[order[i]]);
    dense_ranks_.push_back(dense);
  }
  offsets_.push_back(agents_.size());
  weights_.push_back(result.weight);
  total_weight_ += result.weight;
  for (AgentId a : result.agents) num_agents_ = std::max<size_t>(num_agents_, size_t{a} + 1);
}

absl::Status VoteSet::Add(const Result& result, AgentIndex& index, const ResultLimits& limits) {
  if (absl::Status s = ValidateResult(result, limits); !s.ok()) return s;
  absl::InlinedVector<AgentId, 16> ids;
  absl::InlinedVector<uint32_t, 16> ranks;
  for (const Standing& s : result.standings) {
    ids.push_back(index.Intern(s.agent));
    ranks.push_back(s.rank);
  }
  Add({ids, ranks, result.weight});
  return absl::OkStatus();
}

}  // namespace ratings
