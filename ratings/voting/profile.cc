#include "ratings/voting/profile.h"

#include <algorithm>
#include <numeric>

namespace ratings::voting {

void Profile::Add(const IndexedResult& result) {
  std::vector<size_t> order(result.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t i, size_t j) { return result.ranks[i] < result.ranks[j]; });
  uint32_t group = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && result.ranks[order[i]] != result.ranks[order[i - 1]]) ++group;
    agents_of_.push_back(result.agents[order[i]]);
    groups_.push_back(group);
  }
  start_.push_back(agents_of_.size());
  weights_.push_back(result.weight);
  total_weight_ += result.weight;
}

}  // namespace ratings::voting
