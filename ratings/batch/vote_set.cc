#include "ratings/batch/vote_set.h"

#include <algorithm>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

namespace ratings {

namespace {

// Whether `ranks` (in the order given) are 1, then each equal to the one before or one more:
// the vote is then given best first, and its ranks are its dense ranks.
bool IsBestFirstDense(absl::Span<const uint32_t> ranks) {
  if (!ranks.empty() && ranks[0] != 1) return false;
  for (size_t i = 1; i < ranks.size(); ++i) {
    if (ranks[i] != ranks[i - 1] && ranks[i] != ranks[i - 1] + 1) return false;
  }
  return true;
}

}  // namespace

VoteSet VoteSet::FromArrays(Arrays arrays, size_t num_agents) {
  VoteSet set(num_agents);
  set.offsets_ = std::move(arrays.offsets);
  set.agents_ = std::move(arrays.agents);
  set.ranks_ = std::move(arrays.ranks);
  set.weights_ = std::move(arrays.weights);
  set.given_best_first_ = arrays.best_first_agents.empty() && arrays.dense_ranks.empty();
  set.best_first_agents_ = std::move(arrays.best_first_agents);
  set.dense_ranks_ = std::move(arrays.dense_ranks);
  if (set.weights_.empty()) {
    set.total_weight_ = static_cast<double>(set.size());  // what adding 1 at a time gives
  } else {
    for (const double w : set.weights_) set.total_weight_ += w;  // in order, as Add sums
  }
  return set;
}

void VoteSet::Add(const IndexedResult& result) {
  if (given_best_first_ && !IsBestFirstDense(result.ranks)) StopSharingBestFirst();
  if (!weights_.empty() || result.weight != 1.0) {
    weights_.resize(size(), 1.0);  // the votes so far: weight 1 each, if they had none
    weights_.push_back(result.weight);
  }
  agents_.insert(agents_.end(), result.agents.begin(), result.agents.end());
  ranks_.insert(ranks_.end(), result.ranks.begin(), result.ranks.end());
  offsets_.push_back(agents_.size());
  total_weight_ += result.weight;
  for (AgentId a : result.agents) num_agents_ = std::max<size_t>(num_agents_, size_t{a} + 1);
  if (given_best_first_) return;
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
}

void VoteSet::StopSharingBestFirst() {
  given_best_first_ = false;
  best_first_agents_ = agents_;
  dense_ranks_ = ranks_;
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
