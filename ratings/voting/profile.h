// A preference profile ([VasE] §"Voting": voters, weak orders over the
// alternatives): every result as a vote, best first, with its tie groups and weight.
// The scoring rules (approval, plurality, Borda, STV) read the votes themselves; the
// pairwise rules read the BatchTally built from the same profile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings::voting {

// Not thread-safe; one owner. Memory: O(total standings). A vote may rank any subset of
// the agents (an incomplete ranking) and may tie agents.
class Profile {
 public:
  // A profile over `agents` agents (ids 0..agents-1) and no votes.
  explicit Profile(size_t agents) : agents_(agents) {}

  // Appends the result as a vote. Precondition: every id < agents(), ids distinct,
  // weight > 0 (ValidateResult holds).
  void Add(const IndexedResult& result);

  size_t agents() const { return agents_; }
  size_t votes() const { return weights_.size(); }
  // The vote's agents, best first (ties in input order).
  absl::Span<const AgentId> Agents(size_t vote) const {
    return absl::MakeConstSpan(agents_of_).subspan(start_[vote], start_[vote + 1] - start_[vote]);
  }
  // Parallel to Agents(vote): the tie group of each, 0 for the top group, increasing by
  // one from group to group (so equal values tie).
  absl::Span<const uint32_t> Groups(size_t vote) const {
    return absl::MakeConstSpan(groups_).subspan(start_[vote], start_[vote + 1] - start_[vote]);
  }
  double Weight(size_t vote) const { return weights_[vote]; }
  // Sum of the weights of all votes.
  double TotalWeight() const { return total_weight_; }

 private:
  size_t agents_ = 0;
  std::vector<AgentId> agents_of_;
  std::vector<uint32_t> groups_;
  std::vector<size_t> start_ = {0};
  std::vector<double> weights_;
  double total_weight_ = 0.0;
};

}  // namespace ratings::voting
