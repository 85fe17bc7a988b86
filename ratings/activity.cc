#include "ratings/activity.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ratings {

void Activity::Record(absl::Span<const AgentId> agents, std::optional<absl::Time> time) {
  if (time.has_value()) state_.latest = std::max(state_.latest, *time);
  const absl::Time at = time.value_or(state_.latest);
  for (const AgentId a : agents) state_.last[a] = std::max(state_.last[a], at);
}

bool Activity::Inactive(AgentId a) const {
  const absl::Time last = state_.last[a];
  return last != absl::InfinitePast() && state_.latest - last > inactive_after_;
}

absl::Status Activity::Restore(ActivityState state) {
  for (size_t a = 0; a < state.last.size(); ++a) {
    if (state.last[a] > state.latest) {
      return absl::InvalidArgumentError(
          absl::StrCat("activity: agent #", a, " played after the pool's latest event time"));
    }
  }
  state_ = std::move(state);
  return absl::OkStatus();
}

}  // namespace ratings
