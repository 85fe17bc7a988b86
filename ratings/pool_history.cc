#include "ratings/pool_history.h"

#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ratings {
absl::StatusOr<PoolHistory> PoolHistory::Create(Model model, size_t capacity) {
  if (model == Model::kMl) {
    return absl::InvalidArgumentError(
        "history: ml has no rating after each result (its lottery is solved now and then)");
  }
  if (capacity < 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("history: ", capacity, " points per agent; at least 4"));
  }
  return PoolHistory(model, capacity);
}

HistoryPoint PoolHistory::Point(const Pool& pool, const OnlineBootstrap* bootstrap,
                                AgentId a) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  HistoryPoint p{.sequence = pool.results(), .rating = kNaN, .ci_low = kNaN, .ci_high = kNaN};
  switch (model_) {
    case Model::kElo:
      p.rating = pool.elo()->Rating(a);
      if (bootstrap != nullptr && bootstrap->has_elo()) {
        const RatingInterval i = bootstrap->EloInterval(a, p.rating);
        p.ci_low = i.low;
        p.ci_high = i.high;
      }
      break;
    case Model::kSco:
      p.rating = pool.sco()->Rating(a);
      if (bootstrap != nullptr && bootstrap->has_sco()) {
        const RatingInterval i = bootstrap->ScoInterval(a, p.rating);
        p.ci_low = i.low;
        p.ci_high = i.high;
      }
      break;
    case Model::kGlicko2: {
      p.rating = pool.glicko2()->Rating(a);
      const RatingInterval i = pool.glicko2()->Interval(a);
      p.ci_low = i.low;
      p.ci_high = i.high;
      break;
    }
    case Model::kMl:
      break;  // refused by Create
  }
  return p;
}

void PoolHistory::Record(const Pool& pool, const OnlineBootstrap* bootstrap,
                         std::optional<absl::Time> time) {
  for (const AgentId a : pool.last_applied().agents) {
    while (histories_.size() <= a) histories_.emplace_back(capacity_);
    HistoryPoint p = Point(pool, bootstrap, a);
    p.time = time;
    histories_[a].Add(p);
  }
}

PoolHistoryState PoolHistory::ExportState() const {
  PoolHistoryState state;
  state.counts.reserve(histories_.size());
  for (const RatingHistory& h : histories_) {
    state.counts.push_back(static_cast<uint32_t>(h.points().size()));
    state.points.insert(state.points.end(), h.points().begin(), h.points().end());
  }
  return state;
}

absl::Status PoolHistory::Restore(const PoolHistoryState& state) {
  uint64_t total = 0;
  for (const uint32_t c : state.counts) total += c;
  if (total != state.points.size()) {
    return absl::InvalidArgumentError(absl::StrCat("history: the counts add up to ", total,
                                                   " points, the state has ", state.points.size()));
  }
  std::vector<RatingHistory> histories;
  histories.reserve(state.counts.size());
  size_t next = 0;
  for (size_t a = 0; a < state.counts.size(); ++a) {
    RatingHistory& h = histories.emplace_back(capacity_);
    for (uint32_t i = 0; i < state.counts[a]; ++i, ++next) {
      const HistoryPoint& p = state.points[next];
      if (i > 0 && p.sequence <= state.points[next - 1].sequence) {
        return absl::InvalidArgumentError(absl::StrCat("history: agent #", a, ": sequence ",
                                                       p.sequence, " after ",
                                                       state.points[next - 1].sequence));
      }
      h.Add(p);
    }
  }
  histories_ = std::move(histories);
  return absl::OkStatus();
}

absl::Span<const HistoryPoint> PoolHistory::Of(AgentId a) const {
  return a < histories_.size() ? histories_[a].points() : absl::Span<const HistoryPoint>();
}

HistoryRun PoolHistory::Share(AgentId a) const {
  return a < histories_.size() ? histories_[a].Share() : HistoryRun();
}

}  // namespace ratings
