// The whole profile of a batch method (docs/MODELS.md §5): every result, owned in flat arrays,
// so that batch solvers can sample results by index (SCO Algorithm 1 line 2) and the
// memory is O(total standings), not one allocation per result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe to mutate; const access may be shared. Agents are dense ids < num_agents().
class VoteSet {
 public:
  // Appends a copy of `result`. Precondition: it has >= 2 distinct agents (as validated
  // results do). Grows num_agents() to cover its ids.
  void Add(const IndexedResult& result);

  size_t size() const { return weights_.size(); }
  size_t num_agents() const { return num_agents_; }
  // Grows the agent count (agents that appear in no result, e.g. from a ground truth).
  void SetNumAgents(size_t n) {
    if (n > num_agents_) num_agents_ = n;
  }
  // Precondition: i < size(). Valid until the next Add.
  IndexedResult operator[](size_t i) const {
    const size_t begin = offsets_[i];
    const size_t end = offsets_[i + 1];
    return {absl::MakeConstSpan(agents_).subspan(begin, end - begin),
            absl::MakeConstSpan(ranks_).subspan(begin, end - begin), weights_[i]};
  }

 private:
  size_t num_agents_ = 0;
  std::vector<size_t> offsets_ = {0};
  std::vector<AgentId> agents_;
  std::vector<uint32_t> ranks_;
  std::vector<double> weights_;
};

}  // namespace ratings
