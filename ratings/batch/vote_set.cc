#include "ratings/batch/vote_set.h"

#include <algorithm>

namespace ratings {

void VoteSet::Add(const IndexedResult& result) {
  agents_.insert(agents_.end(), result.agents.begin(), result.agents.end());
  ranks_.insert(ranks_.end(), result.ranks.begin(), result.ranks.end());
  weights_.push_back(result.weight);
  offsets_.push_back(agents_.size());
  for (AgentId a : result.agents) num_agents_ = std::max<size_t>(num_agents_, size_t{a} + 1);
}

}  // namespace ratings
