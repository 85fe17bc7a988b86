// Every agent's bounded rating history in one model of a pool (docs/MODELS.md §11): after
// each result, a point for each of its agents, thinned per agent by RatingHistory. The points
// are staged and reach the agents' histories in bursts (PointLog, §11.2); every reader below
// sees them all.
//
//   ASSIGN_OR_RETURN(PoolHistory history, PoolHistory::Create(Model::kElo, 128));
//   pool.Apply(result, time);
//   history.Record(pool, bootstrap, time);            // after every Apply
//   for (const HistoryPoint& p : history.Of(id)) ...  // oldest first
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "ratings/model.h"
#include "ratings/online_bootstrap.h"
#include "ratings/point_log.h"
#include "ratings/pool.h"
#include "ratings/rating_history.h"

namespace ratings {

// Every agent's points, for snapshots: counts[a] points of agent a, agents in id order,
// each agent's oldest first.
struct PoolHistoryState {
  std::vector<uint32_t> counts;
  std::vector<HistoryPoint> points;
};

// One thread only, even for its const readers, which move the staged points into place; the
// runs Share returns may be read on any thread (RatingHistory::Share).
class PoolHistory {
 public:
  // InvalidArgument for ml (its ranking is a lottery solved now and then, not a rating
  // after each result) or a capacity below 4.
  static absl::StatusOr<PoolHistory> Create(Model model, size_t capacity);

  // After pool.Apply() of the result at event time `time` (nullopt: none): a point for each
  // agent of pool.last_applied(), with sequence pool.results(), the model's rating and its
  // interval: elo's and sco's from `bootstrap` (NaN, NaN without one), glicko2's rating ±
  // 1.96·rd. Precondition: the model is on in the pool. O(k · replicas).
  void Record(const Pool& pool, const OnlineBootstrap* bootstrap, std::optional<absl::Time> time);

  // Agent a's points, oldest first; empty for an agent with none.
  absl::Span<const HistoryPoint> Of(AgentId a) const;
  // Agent a's points shared for reading on another thread (RatingHistory::Share); an empty
  // run for an agent with none.
  HistoryRun Share(AgentId a) const;
  // Agents with an entry (ids below this may still have no points).
  size_t size() const {
    Flush();
    return histories_.size();
  }
  Model model() const { return model_; }

  PoolHistoryState ExportState() const;
  // Replaces every history by `state`'s, each agent's points added in order (so a state
  // kept at a larger capacity is thinned as if its points arrived now). InvalidArgument
  // naming the agent: the counts do not add up to the points, or an agent's sequences do
  // not increase.
  absl::Status Restore(const PoolHistoryState& state);
  size_t capacity() const { return capacity_; }

 private:
  PoolHistory(Model model, size_t capacity) : model_(model), capacity_(capacity) {}
  // Writes every field of agent a's point after the result just applied, in place.
  void Write(const Pool& pool, const OnlineBootstrap* bootstrap, AgentId a,
             std::optional<absl::Time> time, HistoryPoint& p) const;

  // Moves the staged points into the agents' histories. Const because every reader calls it
  // first: the staged points are part of the histories' value, only not yet in place.
  void Flush() const;

  Model model_;
  size_t capacity_;
  mutable std::vector<RatingHistory> histories_;  // by agent id
  mutable PointLog staged_;
};

}  // namespace ratings
