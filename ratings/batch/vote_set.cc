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

void VoteSet::AddCopies(const IndexedResult& result, size_t copies) {
  if (copies == 0) return;
  Add(result);
  if (copies == 1) return;
  // The first copy's best-first order and dense ranks, copied as they are (from a local
  // copy: a vector's insert must not read from the vector itself).
  const size_t k = result.size();
  const size_t first = agents_.size() - k;
  const absl::InlinedVector<AgentId, 16> best_first(best_first_agents_.begin() + first,
                                                    best_first_agents_.end());
  const absl::InlinedVector<uint32_t, 16> dense(dense_ranks_.begin() + first, dense_ranks_.end());
  const size_t more = copies - 1;
  // Room first, growing geometrically as push_back would.
  const auto grow = [](auto& v, size_t extra) {
    if (v.size() + extra > v.capacity()) v.reserve(std::max(v.size() + extra, 2 * v.capacity()));
  };
  grow(agents_, more * k);
  grow(ranks_, more * k);
  grow(best_first_agents_, more * k);
  grow(dense_ranks_, more * k);
  grow(offsets_, more);
  grow(weights_, more);
  for (size_t c = 0; c < more; ++c) {
    agents_.insert(agents_.end(), result.agents.begin(), result.agents.end());
    ranks_.insert(ranks_.end(), result.ranks.begin(), result.ranks.end());
    best_first_agents_.insert(best_first_agents_.end(), best_first.begin(), best_first.end());
    dense_ranks_.insert(dense_ranks_.end(), dense.begin(), dense.end());
    offsets_.push_back(agents_.size());
    weights_.push_back(result.weight);
    total_weight_ += result.weight;  // one addition per vote, as Add does
  }
}

void VoteSet::Reserve(size_t votes, size_t standings) {
  offsets_.reserve(offsets_.size() + votes);
  weights_.reserve(weights_.size() + votes);
  agents_.reserve(agents_.size() + standings);
  ranks_.reserve(ranks_.size() + standings);
  best_first_agents_.reserve(best_first_agents_.size() + standings);
  dense_ranks_.reserve(dense_ranks_.size() + standings);
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
