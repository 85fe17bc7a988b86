// GRE ([AE] Def. 3.2) against one fixed truth, computed without allocation for Algorithm 1's
// per-round report. Same value as ratings/measures GeneralizedTopKError on the ranking
// restricted to the truth's agents (the originals of a clone experiment, App. C.1).
#pragma once

#include <cstddef>
#include <vector>

#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings::active {

class TopKScorer {
 public:
  // `truth` best first; every id < num_agents. Precondition: 1 <= k <= truth.size().
  TopKScorer(absl::Span<const AgentId> truth, size_t num_agents, size_t k);
  // GRE of `ranking` (every agent of the model, best first; agents outside the truth are
  // skipped). Precondition: it holds every agent of the truth once.
  double Gre(absl::Span<const AgentId> ranking);

 private:
  std::vector<AgentId> truth_;
  std::vector<int> truth_position_;  // by agent id; -1 outside the truth
  size_t k_;
  double alpha_;
  std::vector<size_t> rank_of_top_;  // scratch: position in the ranking of truth_[i], i < k
};

}  // namespace ratings::active
