#include "daemon/ratingd/model_snapshots.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/wire_format.h"
#include "ratings/io/game_result_proto.h"

namespace ratingd {
namespace {

// The seconds column's value for "no time".
constexpr int64_t kNoTimeSeconds = std::numeric_limits<int64_t>::min();

struct SecondsAndNanos {
  int64_t seconds;
  uint32_t nanos;
};

SecondsAndNanos Split(std::optional<absl::Time> time) {
  if (!time.has_value()) return {.seconds = kNoTimeSeconds, .nanos = 0};
  const int64_t s = absl::ToUnixSeconds(*time);  // rounded down
  return {
      .seconds = s,
      .nanos = static_cast<uint32_t>(absl::ToInt64Nanoseconds(*time - absl::FromUnixSeconds(s)))};
}

void AppendTime(std::optional<absl::Time> time, google::protobuf::RepeatedField<int64_t>& seconds,
                google::protobuf::RepeatedField<uint32_t>& nanos) {
  const SecondsAndNanos split = Split(time);
  seconds.Add(split.seconds);
  nanos.Add(split.nanos);
}

// A length-delimited field of `bytes` bytes, with its key (fields below 16); nothing when
// empty, as protobuf writes no empty packed field.
size_t FieldSize(size_t bytes) { return bytes == 0 ? 0 : wire::LengthDelimitedSize(bytes); }

void AppendFieldHead(uint32_t field, size_t bytes, std::string& out) {
  wire::AppendLengthDelimitedKey(field, out);
  wire::AppendVarint(bytes, out);
}

// Writes v as a base-128 varint at p; returns the byte after it.
char* PutVarint(uint64_t v, char* p) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

// Calls visit(point) on every point of every agent, oldest agent id first.
template <typename Visit>
void ForEachPoint(const HistoryCapture& history, const Visit& visit) {
  for (const ratings::HistoryRun& run : history.agents) {
    for (const ratings::HistoryPoint& p : run.points()) visit(p);
  }
}

std::optional<absl::Time> TimeAt(int64_t seconds, uint32_t nanos) {
  if (seconds == kNoTimeSeconds) return std::nullopt;
  return absl::FromUnixSeconds(seconds) + absl::Nanoseconds(nanos);
}

absl::Time TimeOf(const google::protobuf::Timestamp& t) {
  return absl::FromUnixSeconds(t.seconds()) + absl::Nanoseconds(t.nanos());
}

}  // namespace

v1::Glicko2Snapshot Glicko2ToSnapshot(const ratings::Glicko2& model) {
  const ratings::Glicko2State& state = model.state();
  v1::Glicko2Snapshot g;
  g.mutable_mu()->Assign(state.mu.begin(), state.mu.end());
  g.mutable_phi()->Assign(state.phi.begin(), state.phi.end());
  g.mutable_sigma()->Assign(state.sigma.begin(), state.sigma.end());
  for (ratings::AgentId a = 0; a < state.last.size(); ++a) {
    AppendTime(model.LastPlayed(a), *g.mutable_last_seconds(), *g.mutable_last_nanos());
  }
  if (const std::optional<absl::Time> latest = model.latest()) {
    *g.mutable_latest() = ratings::io::TimestampOf(*latest);
  }
  return g;
}

absl::StatusOr<ratings::Glicko2State> Glicko2FromSnapshot(const v1::Glicko2Snapshot& g) {
  if (g.last_seconds_size() != g.mu_size() || g.last_nanos_size() != g.mu_size()) {
    return absl::InvalidArgumentError(absl::StrCat("glicko2: ", g.mu_size(), " ratings but ",
                                                   g.last_seconds_size(), " and ",
                                                   g.last_nanos_size(), " last times"));
  }
  ratings::Glicko2State state;
  state.mu.assign(g.mu().begin(), g.mu().end());
  state.phi.assign(g.phi().begin(), g.phi().end());
  state.sigma.assign(g.sigma().begin(), g.sigma().end());
  state.last.reserve(static_cast<size_t>(g.mu_size()));
  for (int i = 0; i < g.mu_size(); ++i) {
    state.last.push_back(TimeAt(g.last_seconds(i), g.last_nanos(i)).value_or(absl::InfinitePast()));
  }
  if (g.has_latest()) state.latest = TimeOf(g.latest());
  return state;
}

v1::ActivitySnapshot ActivityToSnapshot(const ratings::Activity& activity) {
  const ratings::ActivityState& state = activity.state();
  v1::ActivitySnapshot out;
  for (const absl::Time last : state.last) {
    AppendTime(last == absl::InfinitePast() ? std::nullopt : std::optional(last),
               *out.mutable_last_seconds(), *out.mutable_last_nanos());
  }
  if (state.latest != absl::InfinitePast()) {
    *out.mutable_latest() = ratings::io::TimestampOf(state.latest);
  }
  return out;
}

absl::StatusOr<ratings::ActivityState> ActivityFromSnapshot(const v1::ActivitySnapshot& a) {
  if (a.last_seconds_size() != a.last_nanos_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "activity: ", a.last_seconds_size(), " seconds but ", a.last_nanos_size(), " nanoseconds"));
  }
  ratings::ActivityState state;
  state.last.reserve(static_cast<size_t>(a.last_seconds_size()));
  for (int i = 0; i < a.last_seconds_size(); ++i) {
    state.last.push_back(TimeAt(a.last_seconds(i), a.last_nanos(i)).value_or(absl::InfinitePast()));
  }
  if (a.has_latest()) state.latest = TimeOf(a.latest());
  return state;
}

v1::HistorySnapshot HistoryToSnapshot(const ratings::PoolHistory& history) {
  const ratings::PoolHistoryState state = history.ExportState();
  v1::HistorySnapshot h;
  h.set_model(std::string(ratings::ModelName(history.model())));
  h.mutable_counts()->Assign(state.counts.begin(), state.counts.end());
  for (const ratings::HistoryPoint& p : state.points) {
    h.add_sequence(p.sequence);
    AppendTime(p.time, *h.mutable_seconds(), *h.mutable_nanos());
    h.add_rating(p.rating);
    h.add_ci_low(p.ci_low);
    h.add_ci_high(p.ci_high);
  }
  return h;
}

HistoryCapture CaptureHistory(const ratings::PoolHistory& history) {
  HistoryCapture capture{.model = history.model(), .agents = {}};
  capture.agents.reserve(history.size());
  for (ratings::AgentId a = 0; a < history.size(); ++a) capture.agents.push_back(history.Share(a));
  return capture;
}

HistoryWireSizes MeasureHistoryWire(const HistoryCapture& history) {
  HistoryWireSizes sizes;
  size_t points = 0;
  for (const ratings::HistoryRun& run : history.agents) sizes.counts += wire::VarintSize(run.size);
  ForEachPoint(history, [&](const ratings::HistoryPoint& p) {
    const SecondsAndNanos split = Split(p.time);
    sizes.sequence += wire::VarintSize(p.sequence);
    sizes.seconds += wire::VarintSize(wire::ZigZag(split.seconds));
    sizes.nanos += wire::VarintSize(split.nanos);
    ++points;
  });
  sizes.total = FieldSize(ratings::ModelName(history.model).size()) + FieldSize(sizes.counts) +
                FieldSize(sizes.sequence) + FieldSize(sizes.seconds) + FieldSize(sizes.nanos) +
                3 * FieldSize(8 * points);
  return sizes;
}

void AppendHistoryWire(const HistoryCapture& history, const HistoryWireSizes& sizes,
                       std::string& out) {
  using H = v1::HistorySnapshot;
  wire::AppendLengthDelimited(H::kModelFieldNumber, ratings::ModelName(history.model), out);
  if (sizes.counts == 0) return;  // no agent: every column is empty
  AppendFieldHead(H::kCountsFieldNumber, sizes.counts, out);
  size_t points = 0;
  for (const ratings::HistoryRun& run : history.agents) {
    wire::AppendVarint(run.size, out);
    points += run.size;
  }
  if (points == 0) return;
  // Each column's payload is written in place into room made for it (its size is known).
  const auto column = [&](uint32_t field, size_t bytes, const auto& put) {
    AppendFieldHead(field, bytes, out);
    const size_t at = out.size();
    out.resize(at + bytes);
    char* p = out.data() + at;
    ForEachPoint(history, [&](const ratings::HistoryPoint& point) { p = put(point, p); });
    assert(p == out.data() + out.size());
  };
  column(H::kSequenceFieldNumber, sizes.sequence,
         [](const ratings::HistoryPoint& point, char* p) { return PutVarint(point.sequence, p); });
  column(H::kSecondsFieldNumber, sizes.seconds, [](const ratings::HistoryPoint& point, char* p) {
    return PutVarint(wire::ZigZag(Split(point.time).seconds), p);
  });
  column(H::kNanosFieldNumber, sizes.nanos, [](const ratings::HistoryPoint& point, char* p) {
    return PutVarint(Split(point.time).nanos, p);
  });
  const auto doubles = [&](uint32_t field, double ratings::HistoryPoint::*member) {
    column(field, 8 * points, [member](const ratings::HistoryPoint& point, char* p) {
      std::memcpy(p, &(point.*member), 8);  // fixed64, little-endian (wire_format.h)
      return p + 8;
    });
  };
  doubles(H::kRatingFieldNumber, &ratings::HistoryPoint::rating);
  doubles(H::kCiLowFieldNumber, &ratings::HistoryPoint::ci_low);
  doubles(H::kCiHighFieldNumber, &ratings::HistoryPoint::ci_high);
}

absl::StatusOr<ratings::PoolHistoryState> HistoryFromSnapshot(const v1::HistorySnapshot& h) {
  const int n = h.sequence_size();
  if (h.seconds_size() != n || h.nanos_size() != n || h.rating_size() != n ||
      h.ci_low_size() != n || h.ci_high_size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("history of ", h.model(), ": its columns have different lengths"));
  }
  ratings::PoolHistoryState state;
  state.counts.assign(h.counts().begin(), h.counts().end());
  state.points.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    state.points.push_back({.sequence = h.sequence(i),
                            .time = TimeAt(h.seconds(i), h.nanos(i)),
                            .rating = h.rating(i),
                            .ci_low = h.ci_low(i),
                            .ci_high = h.ci_high(i)});
  }
  return state;
}

}  // namespace ratingd
