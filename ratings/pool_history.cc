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

void PoolHistory::Write(const Pool& pool, const OnlineBootstrap* bootstrap, AgentId a,
                        std::optional<absl::Time> time, HistoryPoint& p) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double rating = kNaN;
  RatingInterval interval{.low = kNaN, .high = kNaN};
  switch (model_) {
    case Model::kElo:
      rating = pool.elo()->Rating(a);
      if (bootstrap != nullptr && bootstrap->has_elo()) {
        interval = bootstrap->EloInterval(a, rating);
      }
      break;
    case Model::kSco:
      rating = pool.sco()->Rating(a);
      if (bootstrap != nullptr && bootstrap->has_sco()) {
        interval = bootstrap->ScoInterval(a, rating);
      }
      break;
    case Model::kGlicko2:
      rating = pool.glicko2()->Rating(a);
      interval = pool.glicko2()->Interval(a);
      break;
    case Model::kMl:
      break;  // refused by Create
  }
  p.sequence = pool.results();
  p.time = time;
  p.rating = rating;
  p.ci_low = interval.low;
  p.ci_high = interval.high;
}

void PoolHistory::Record(const Pool& pool, const OnlineBootstrap* bootstrap,
                         std::optional<absl::Time> time) {
  for (const AgentId a : pool.last_applied().agents) {
    if (staged_.full()) Flush();
    Write(pool, bootstrap, a, time, staged_.Append(a));
  }
}

void PoolHistory::Flush() const {
  if (staged_.empty()) return;
  staged_.Drain([&](AgentId a, const HistoryPoint& p) {
    while (histories_.size() <= a) histories_.emplace_back(capacity_);
    histories_[a].Add(p);
  });
}

PoolHistoryState PoolHistory::ExportState() const {
  Flush();
  PoolHistoryState state;
  state.counts.reserve(histories_.size());
  for (const RatingHistory& h : histories_) {
    state.counts.push_back(static_cast<uint32_t>(h.points().size()));
    state.points.insert(state.points.end(), h.points().begin(), h.points().end());
  }
  return state;
}

absl::Status PoolHistory::Restore(const PoolHistoryState& state) {
  Flush();  // then replaced
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
  Flush();
  return a < histories_.size() ? histories_[a].points() : absl::Span<const HistoryPoint>();
}

HistoryRun PoolHistory::Share(AgentId a) const {
  Flush();
  return a < histories_.size() ? histories_[a].Share() : HistoryRun();
}

}  // namespace ratings
