// The votes of a whole profile (docs/MODELS.md §1, §5, §6): every result of a batch run,
// owned in flat arrays (memory O(total standings), not one allocation per result), read
// by the batch solvers (which sample results by index, SCO Algorithm 1 line 2), the
// metrics, and the voting rules ([VasE] §"Voting": voters, weak orders over the
// alternatives). Each vote reads two ways: as given, and best first with dense ranks; the
// second is stored apart only once some vote differs from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "ratings/agent_index.h"
#include "ratings/default_init_vector.h"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe to mutate; const access may be shared. Agents are dense ids <
// num_agents(). A vote may rank any subset of the agents (an incomplete ranking) and may
// tie agents.
class VoteSet {
 public:
  // No votes and no agents.
  VoteSet() = default;
  // No votes over `num_agents` agents (ids 0..num_agents-1), e.g. a pool's.
  explicit VoteSet(size_t num_agents) : num_agents_(num_agents) {}

  // Appends a copy of `result`. Precondition: its agents are distinct and its weight is
  // > 0 (as in validated results, which also have >= 2 agents; a vote of one agent is
  // accepted and carries no pair). Grows num_agents() to cover its ids.
  void Add(const IndexedResult& result);
  // Appends `result` after ValidateResult(result, limits), interning its agents into
  // `index` in standing order. On error (ValidateResult's InvalidArgument) neither this
  // set nor `index` changes. Grows num_agents() to cover the result's ids, not to
  // index.size() (SetNumAgents does that).
  absl::Status Add(const Result& result, AgentIndex& index, const ResultLimits& limits = {});
  // The storage of a set, for a reader that fills it in place (ratings/io/preflib_votes.h,
  // ratings/io/scores_votes.h): vote i ranks agents[j] at ranks[j] for j in [offsets[i],
  // offsets[i+1]), with weight weights[i]; best first (BestFirst), it is
  // best_first_agents[j] with dense_ranks[j] over the same j. Both best-first arrays empty:
  // every vote is given best first with dense ranks.
  struct Arrays {
    DefaultInitVector<size_t> offsets;  // size() + 1 entries, from 0, non-decreasing
    DefaultInitVector<AgentId> agents;  // offsets.back() entries
    DefaultInitVector<uint32_t> ranks;
    DefaultInitVector<double> weights;             // size() entries, or none when every weight is 1
    DefaultInitVector<AgentId> best_first_agents;  // empty, or offsets.back() entries
    DefaultInitVector<uint32_t> dense_ranks;
  };
  // The set of these votes over `num_agents` agents (at least the largest id + 1).
  // Precondition: each vote as Add requires, and its best-first view as BestFirst defines it.
  static VoteSet FromArrays(Arrays arrays, size_t num_agents);

  // The number of votes.
  size_t size() const { return offsets_.size() - 1; }
  size_t num_agents() const { return num_agents_; }
  // Grows the agent count (agents that appear in no result, e.g. from a ground truth).
  void SetNumAgents(size_t n) {
    if (n > num_agents_) num_agents_ = n;
  }

  // Vote i as added: agents[j] has rank ranks[j], in the order given.
  // Precondition: i < size(). Valid until the next Add (as are all views below).
  IndexedResult operator[](size_t i) const {
    return {Slice(agents_, i), Slice(ranks_, i), Weight(i)};
  }
  // Vote i best first: the same agents sorted by rank, ties in the order given, with
  // dense ranks (its tie groups numbered from 1: 1 for the top group, one more for each
  // group below), so two agents tie exactly when their given ranks are equal. Given
  // agents {a, b, c} with ranks {3, 1, 3}: agents {b, a, c}, ranks {1, 2, 2}.
  IndexedResult BestFirst(size_t i) const {
    if (given_best_first_) return (*this)[i];
    return {Slice(best_first_agents_, i), Slice(dense_ranks_, i), Weight(i)};
  }
  double Weight(size_t i) const { return weights_.empty() ? 1.0 : weights_[i]; }
  // Sum of the weights of all votes, in the order added (may overflow to +inf).
  double TotalWeight() const { return total_weight_; }

 private:
  template <typename T>
  absl::Span<const T> Slice(const DefaultInitVector<T>& v, size_t i) const {
    return absl::MakeConstSpan(v).subspan(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  // Gives the votes so far their own best-first arrays: the first vote added that is not
  // given best first with dense ranks ends the sharing.
  void StopSharingBestFirst();

  size_t num_agents_ = 0;
  DefaultInitVector<size_t> offsets_ = {0};  // vote i is [offsets_[i], offsets_[i+1]) of each array
  DefaultInitVector<AgentId> agents_;        // as given
  DefaultInitVector<uint32_t> ranks_;
  // True while every vote is given best first with dense ranks (as PrefLib votes are): the
  // best-first view is then the given one, and the two arrays below stay empty, which halves
  // the memory of such sets.
  bool given_best_first_ = true;
  DefaultInitVector<AgentId> best_first_agents_;  // best first
  DefaultInitVector<uint32_t> dense_ranks_;
  // Empty while every weight is 1 (PrefLib voters, battles, most results): 8 bytes a vote
  // saved; the first other weight added gives every vote its entry.
  DefaultInitVector<double> weights_;
  double total_weight_ = 0.0;
};

}  // namespace ratings
