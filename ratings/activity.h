// When each agent of a pool last played, in event time, and which agents are inactive
// (docs/MODELS.md §12, `--inactive-after D`): an agent whose last timed result is more
// than D older than the pool's latest event time. Reading never consults a clock.
//
//   Activity activity(absl::Hours(24 * 30));
//   activity.Resize(index.size());
//   activity.Record(result.agents, time);   // after each result; nullopt: the latest so far
//   if (activity.Inactive(id)) ...
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings {

// Everything that determines an Activity's answers, by agent id.
struct ActivityState {
  std::vector<absl::Time> last;  // absl::InfinitePast(): no timed result yet
  absl::Time latest = absl::InfinitePast();
};

class Activity {
 public:
  // Precondition: inactive_after >= 0 and finite (callers validate flags).
  explicit Activity(absl::Duration inactive_after) : inactive_after_(inactive_after) {}

  // Grows to n agents (new ones with no time); never shrinks.
  void Resize(size_t n) {
    state_.last.resize(std::max(n, state_.last.size()), absl::InfinitePast());
  }
  // After a result of `agents` (ids < size()) at event time `time`; nullopt: the latest so
  // far, as Glicko-2 takes it (docs/MODELS.md §10). An agent's last time only moves forward.
  void Record(absl::Span<const AgentId> agents, std::optional<absl::Time> time);
  // Agent a's last time is more than inactive_after before the latest (exactly that old is
  // still active). An agent without a timed result, or a pool without any, is active.
  bool Inactive(AgentId a) const;

  size_t size() const { return state_.last.size(); }
  absl::Duration inactive_after() const { return inactive_after_; }
  const ActivityState& state() const { return state_; }
  // InvalidArgument if an agent's time is after the latest.
  absl::Status Restore(ActivityState state);

 private:
  absl::Duration inactive_after_;
  ActivityState state_;
};

}  // namespace ratings
