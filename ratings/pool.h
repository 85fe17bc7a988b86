// One leaderboard (a "pool", docs/MODELS.md §1): the agent index and the four online models
// (deterministic: the same results in the same order give bit-identical state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ratings/activity.h"
#include "ratings/agent_index.h"
#include "ratings/elo.h"
#include "ratings/game_counts.h"
#include "ratings/glicko2.h"
#include "ratings/maximal_lottery.h"
#include "ratings/model.h"
#include "ratings/result.h"
#include "ratings/sco.h"

namespace ratings {

struct PoolOptions {
  // Which models the pool keeps. A model that is off costs nothing per result.
  bool elo = true;
  bool sco = true;
  bool ml = true;
  bool glicko2 = false;  // off unless asked for: the only model that reads event times
  EloOptions elo_options = {};
  ScoOptions sco_options = {};
  MaximalLotteryOptions ml_options = {};
  Glicko2Options glicko2_options = {};
  // --inactive-after (docs/MODELS.md §12): agents whose last timed result is more than this
  // before the pool's latest event time are inactive. Infinite: off (the pool then keeps
  // no activity clock).
  absl::Duration inactive_after = absl::InfiniteDuration();
  ResultLimits limits = {};
};

// Whether `options` keeps `model`.
bool ModelOn(const PoolOptions& options, Model model);

// Everything that determines a Pool's future, for snapshots (docs/ARCHITECTURE.md §5). A model
// that is off has an empty vector / no ml state.
struct PoolState {
  std::vector<std::string> agents = {};  // names in id order
  uint64_t results = 0;
  std::vector<double> elo = {};
  std::vector<double> sco = {};
  std::optional<MaximalLotteryState> ml = {};
  std::optional<Glicko2State> glicko2 = {};
  std::optional<ActivityState> activity = {};  // with inactive_after set
  // GameCounts by agent id (always kept). Empty in a state exported before the pool kept
  // them: FromState then starts every agent at no games.
  std::vector<double> games = {};
  std::vector<double> points = {};
  // GameCounts::results() by agent id. Empty in a state exported before the pool counted
  // them: FromState then starts every agent at no results.
  std::vector<uint64_t> result_counts = {};
};

// Not thread-safe: one thread owns a Pool (docs/ARCHITECTURE.md §3). Apply() costs O(k^2)
// plus, for ML with iterations_per_result > 0, that many O(n^2) iterations; it never does O(n)
// work per result otherwise (growing the dense ML margins when an agent is new is amortised).
class Pool {
 public:
  // InvalidArgument naming the model and parameter if an option is out of range.
  static absl::StatusOr<Pool> Create(const PoolOptions& options);

  // Validates the result (ValidateResult) and applies it to every enabled model, glicko2 at
  // event time `time` (nullopt: the result has none, and takes the latest so far). On an
  // invalid result nothing changes and the status names the problem.
  absl::Status Apply(const Result& result, std::optional<absl::Time> time = std::nullopt);

  // The id of agent `name`, interned now if new (it then has no result, and gets the
  // initial ratings when a result first names it). InvalidArgument for a name Apply()
  // would refuse (empty, or longer than limits.max_agent_id_bytes).
  absl::StatusOr<AgentId> InternAgent(absl::string_view name);
  // Apply() for a result whose agents are ids of this pool (InternAgent): the same checks
  // of what ids leave to check (2 to max_standings distinct known ids, ranks >= 1, the
  // weight) and the same updates, without a string per standing. A front end that has
  // interned its names once (the Python package's battles) applies each result at the cost
  // of the models alone.
  absl::Status ApplyIndexed(const IndexedResult& result,
                            std::optional<absl::Time> time = std::nullopt);

  // The pool's state; O(agents) plus O(agents^2) for ml.
  PoolState ExportState() const;
  // A pool with `options` in `state`. InvalidArgument naming the problem if the state
  // does not fit the options (a model's vector has the wrong size, a repeated agent name,
  // a value out of range).
  static absl::StatusOr<Pool> FromState(const PoolOptions& options, const PoolState& state);

  const AgentIndex& index() const { return index_; }
  uint64_t results() const { return results_; }
  // The result the last Apply() that passed validation applied, by agent id (what the
  // models saw): valid until the next Apply(); empty before the first.
  IndexedResult last_applied() const { return {ids_, ranks_, weight_}; }
  // Null when the model is off.
  const Elo* elo() const { return elo_ ? &*elo_ : nullptr; }
  const Sco* sco() const { return sco_ ? &*sco_ : nullptr; }
  const MaximalLottery* ml() const { return ml_ ? &*ml_ : nullptr; }
  const Glicko2* glicko2() const { return glicko2_ ? &*glicko2_ : nullptr; }
  // Null unless options().inactive_after is set.
  const Activity* activity() const { return activity_ ? &*activity_ : nullptr; }
  // Whether agent a is inactive (always false without an activity clock).
  bool Inactive(AgentId a) const { return activity_ && activity_->Inactive(a); }
  MaximalLottery* mutable_ml() { return ml_ ? &*ml_ : nullptr; }
  // Every agent's games and points, whichever models are on (docs/ACTIVE.md §6).
  const GameCounts& games() const { return games_; }
  const PoolOptions& options() const { return options_; }

 private:
  explicit Pool(const PoolOptions& options) : options_(options) {}
  // Every model's update with ids_, ranks_ and weight_ set: the common end of Apply and
  // ApplyIndexed.
  absl::Status ApplyInterned(std::optional<absl::Time> time);

  PoolOptions options_;
  AgentIndex index_;
  std::optional<Elo> elo_;
  std::optional<Sco> sco_;
  std::optional<MaximalLottery> ml_;
  std::optional<Glicko2> glicko2_;
  std::optional<Activity> activity_;
  GameCounts games_;
  uint64_t results_ = 0;
  // Scratch for Apply(), kept to avoid an allocation per result.
  std::vector<AgentId> ids_;
  std::vector<uint32_t> ranks_;
  double weight_ = 0.0;
};

}  // namespace ratings
