// A pool's ranking kept sorted as ratings change, so that the effect of one result on
// every rank is found in time proportional to the agents it moves (ranking deltas,
// docs/CONTRACTS.md §1). The order: rating descending, then agent id ascending.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ratings/agent_index.h"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe; one owner. Memory: one id, one position and one rating per agent.
class RankedOrder {
 public:
  // `index` names the agents (for the tie-break) and must outlive this object.
  explicit RankedOrder(const AgentIndex* index) : index_(index) {}

  // Sets agent `id`'s rating and moves it to its place. An id equal to size() adds the
  // agent (ids arrive densely, as AgentIndex assigns them). For every other agent whose
  // rank this move changes, appends (agent, its rank before the move) to *displaced
  // (if non-null). Cost: O(1 + agents passed).
  void Set(AgentId id, double rating, std::vector<std::pair<AgentId, uint32_t>>* displaced);

  // Replaces everything: agents 0..n-1 with these ratings; O(n log n).
  void Reset(const std::vector<double>& ratings);

  // 1-based rank. Precondition: id < size().
  uint32_t Rank(AgentId id) const { return pos_[id] + 1; }
  double Rating(AgentId id) const { return rating_[id]; }
  // The agent at 1-based rank r. Precondition: 1 <= r <= size().
  AgentId At(uint32_t rank) const { return order_[rank - 1]; }
  size_t size() const { return order_.size(); }

 private:
  // Whether a belongs strictly before b.
  bool Before(AgentId a, AgentId b) const;

  const AgentIndex* index_;
  std::vector<AgentId> order_;  // position -> agent
  std::vector<uint32_t> pos_;   // agent -> position
  std::vector<double> rating_;  // agent -> rating
};

}  // namespace ratings
