// OnlineBootstrap's state for snapshots (docs/ARCHITECTURE.md §5, docs/MODELS.md §5.6):
// exporting the replicas as values or as whole grid steps, and restoring them.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ratings/online_bootstrap.h"
#include "ratings/status_macros.h"

namespace ratings {

OnlineBootstrapState OnlineBootstrap::ExportState() const {
  OnlineBootstrapState state;
  state.replicas = options_.replicas;
  const auto compact = [&](const std::vector<double>& padded, std::vector<double>& out) {
    out.reserve(size_ * options_.replicas);
    for (size_t a = 0; a < size_; ++a) {
      out.insert(out.end(), padded.begin() + static_cast<std::ptrdiff_t>(a * stride_),
                 padded.begin() + static_cast<std::ptrdiff_t>(a * stride_ + options_.replicas));
    }
  };
  if (elo_options_) compact(elo_, state.elo);
  if (sco_options_) compact(sco_, state.sco);
  return state;
}

void OnlineBootstrap::ExportSteps(const std::vector<double>& rows, const ReplicaGrid& grid,
                                  absl::Span<const double> point, absl::Span<int64_t> out,
                                  size_t first) const {
  // Clamped into int64 for gaps no rating reaches (2^62 steps), so the cast is defined.
  constexpr double kLimit = 0x1p62;
  const size_t r = options_.replicas;
  const size_t agents = out.size() / r;
  for (size_t j = 0; j < agents; ++j) {
    const size_t a = first + j;
    const double centre = grid.Steps(point[a]);
    const double* row = rows.data() + a * stride_;
    for (size_t i = 0; i < r; ++i) {
      out[j * r + i] =
          static_cast<int64_t>(std::clamp(grid.Steps(row[i]) - centre, -kLimit, kLimit));
    }
  }
}

void OnlineBootstrap::EloSteps(absl::Span<const double> point, absl::Span<int64_t> out,
                               size_t first) const {
  ExportSteps(elo_, elo_grid_, point, out, first);
}

void OnlineBootstrap::ScoSteps(absl::Span<const double> point, absl::Span<int64_t> out,
                               size_t first) const {
  ExportSteps(sco_, sco_grid_, point, out, first);
}

template <typename Value>
absl::Status OnlineBootstrap::RestoreModel(const char* model, size_t count, const Value& value,
                                           bool on, double min, double max, const ReplicaGrid& grid,
                                           std::vector<double>& into) const {
  const size_t want = on ? size_ * options_.replicas : 0;
  if (count != want) {
    return absl::InvalidArgumentError(
        absl::StrCat("bootstrap: ", model, ": ", count, " replica ratings for ", want));
  }
  const size_t r = options_.replicas;
  for (size_t a = 0; a < size_ && on; ++a) {
    for (size_t i = 0; i < r; ++i) {
      const double v = value(a, i);
      if (!std::isfinite(v) || v < min || v > max) {
        return absl::InvalidArgumentError(
            absl::StrCat("bootstrap: ", model, ": replica ", i, " of agent #", a, " is ", v));
      }
      into[a * stride_ + i] = grid.Snap(v);
    }
  }
  return absl::OkStatus();
}

absl::Status OnlineBootstrap::CheckReplicaCount(uint32_t replicas) const {
  if (replicas == options_.replicas) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("bootstrap: the state has ", replicas,
                                                 " replicas, this run ", options_.replicas));
}

absl::Status OnlineBootstrap::Restore(const OnlineBootstrapState& state) {
  RETURN_IF_ERROR(CheckReplicaCount(state.replicas));
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Checked into copies first, so a bad state leaves the replicas as they were.
  std::vector<double> elo = elo_;
  std::vector<double> sco = sco_;
  RETURN_IF_ERROR(RestoreModel(
      "elo", state.elo.size(), [&](size_t a, size_t i) { return state.elo[a * replicas() + i]; },
      has_elo(), -kInf, kInf, elo_grid_, elo));
  RETURN_IF_ERROR(RestoreModel(
      "sco", state.sco.size(), [&](size_t a, size_t i) { return state.sco[a * replicas() + i]; },
      has_sco(), has_sco() ? sco_options_->min : 0, has_sco() ? sco_options_->max : 0, sco_grid_,
      sco));
  elo_ = std::move(elo);
  sco_ = std::move(sco);
  return absl::OkStatus();
}

absl::Status OnlineBootstrap::RestoreSteps(uint32_t replicas, absl::Span<const int64_t> elo,
                                           absl::Span<const int64_t> sco,
                                           absl::Span<const double> elo_point,
                                           absl::Span<const double> sco_point) {
  const auto reader = [](absl::Span<const int64_t> steps, size_t& at) {
    return [steps, &at](absl::Span<int64_t> row) {
      std::copy_n(steps.begin() + static_cast<ptrdiff_t>(at), row.size(), row.begin());
      at += row.size();
    };
  };
  size_t e = 0, s = 0;
  const auto elo_reader = reader(elo, e);
  const auto sco_reader = reader(sco, s);
  return RestoreSteps(replicas, {elo.size(), elo_reader}, {sco.size(), sco_reader}, elo_point,
                      sco_point);
}

absl::Status OnlineBootstrap::RestoreSteps(uint32_t replicas, StepSource elo, StepSource sco,
                                           absl::Span<const double> elo_point,
                                           absl::Span<const double> sco_point) {
  RETURN_IF_ERROR(CheckReplicaCount(replicas));
  if ((has_elo() && elo_point.size() != size_) || (has_sco() && sco_point.size() != size_)) {
    return absl::InvalidArgumentError(absl::StrCat("bootstrap: point ratings for ", size_,
                                                   " agents expected, got ", elo_point.size(),
                                                   " elo and ", sco_point.size(), " sco"));
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  // Decoded into the rows directly, without the copies Restore() checks into (the rows
  // are large): on an error they are left partly restored.
  RETURN_IF_ERROR(RestoreStepRows("elo", elo, elo_point, has_elo(), -kInf, kInf, elo_grid_, elo_));
  return RestoreStepRows("sco", sco, sco_point, has_sco(), has_sco() ? sco_options_->min : 0,
                         has_sco() ? sco_options_->max : 0, sco_grid_, sco_);
}

absl::Status OnlineBootstrap::RestoreStepRows(const char* model, const StepSource& steps,
                                              absl::Span<const double> point, bool on, double min,
                                              double max, const ReplicaGrid& grid,
                                              std::vector<double>& into) const {
  const size_t r = options_.replicas;
  const size_t want = on ? size_ * r : 0;
  if (steps.count != want) {
    return absl::InvalidArgumentError(
        absl::StrCat("bootstrap: ", model, ": ", steps.count, " replica ratings for ", want));
  }
  if (!on) return absl::OkStatus();
  // The value a step count stands for: (the point's steps + the count) * step, the same
  // double the pool held (ReplicaGrid::Snap), as RestoreModel checks and snaps it. One
  // agent's row at a time: its point's steps computed once, a loop the compiler vectorises.
  std::array<int64_t, kMaxReplicas> row_steps;
  std::array<double, kMaxReplicas> values;
  const absl::Span<int64_t> row(row_steps.data(), r);
  for (size_t a = 0; a < size_; ++a) {
    steps.read(row);
    const double centre = grid.Steps(point[a]);
    bool in_range = true;
    for (size_t i = 0; i < r; ++i) {
      values[i] = (centre + static_cast<double>(row_steps[i])) * grid.step;
      in_range &= std::isfinite(values[i]) && values[i] >= min && values[i] <= max;
    }
    if (!in_range) {
      const size_t i = static_cast<size_t>(
          std::find_if(values.begin(), values.begin() + r,
                       [&](double v) { return !std::isfinite(v) || v < min || v > max; }) -
          values.begin());
      return absl::InvalidArgumentError(
          absl::StrCat("bootstrap: ", model, ": replica ", i, " of agent #", a, " is ", values[i]));
    }
    double* out = into.data() + a * stride_;
    for (size_t i = 0; i < r; ++i) out[i] = grid.Snap(values[i]);
  }
  return absl::OkStatus();
}

absl::Status OnlineBootstrap::StartAtPoint(absl::Span<const double> elo,
                                           absl::Span<const double> sco) {
  OnlineBootstrapState state;
  state.replicas = options_.replicas;
  const auto spread = [&](absl::Span<const double> point, std::vector<double>& out) {
    for (const double rating : point) out.insert(out.end(), options_.replicas, rating);
  };
  spread(elo, state.elo);
  spread(sco, state.sco);
  return Restore(state);
}

}  // namespace ratings
