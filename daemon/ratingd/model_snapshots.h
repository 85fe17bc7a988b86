// The snapshot messages of glicko2's state, the activity clock and the rating histories
// (docs/ARCHITECTURE.md §5): the codec LivePool's snapshot uses for them. Event times are columns
// of seconds and nanoseconds since the Unix epoch, seconds = -2^63 standing for "no time".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ratingd/v1/snapshot.pb.h"
#include "ratings/activity.h"
#include "ratings/glicko2.h"
#include "ratings/pool_history.h"

namespace ratingd {

v1::Glicko2Snapshot Glicko2ToSnapshot(const ratings::Glicko2& model);
// InvalidArgument when the columns' lengths differ (the values are checked by
// Glicko2::Restore).
absl::StatusOr<ratings::Glicko2State> Glicko2FromSnapshot(const v1::Glicko2Snapshot& g);

v1::ActivitySnapshot ActivityToSnapshot(const ratings::Activity& activity);
// InvalidArgument when the columns' lengths differ.
absl::StatusOr<ratings::ActivityState> ActivityFromSnapshot(const v1::ActivitySnapshot& a);

// The model's name and every agent's points.
v1::HistorySnapshot HistoryToSnapshot(const ratings::PoolHistory& history);
// InvalidArgument when the columns' lengths differ (the rest is checked by
// PoolHistory::Restore).
absl::StatusOr<ratings::PoolHistoryState> HistoryFromSnapshot(const v1::HistorySnapshot& h);

// A pool history's points as they are now, shared rather than copied (RatingHistory::Share:
// O(agents)), so that the snapshot's bytes can be written on another thread while the
// history goes on (docs/ARCHITECTURE.md §4.2).
struct HistoryCapture {
  ratings::Model model = ratings::Model::kElo;
  std::vector<ratings::HistoryRun> agents;  // by agent id
};
HistoryCapture CaptureHistory(const ratings::PoolHistory& history);

// HistoryToSnapshot's message written straight from the captured points, without copying
// them into a message first (a million agents' histories are hundreds of megabytes): its
// payload sizes, measured once, then the message's bytes (no field key or length of its
// own), which parse to HistoryToSnapshot(history). Any thread.
struct HistoryWireSizes {
  size_t counts = 0;  // the packed fields' payloads
  size_t sequence = 0;
  size_t seconds = 0;
  size_t nanos = 0;
  size_t total = 0;  // the whole message
};
HistoryWireSizes MeasureHistoryWire(const HistoryCapture& history);
void AppendHistoryWire(const HistoryCapture& history, const HistoryWireSizes& sizes,
                       std::string& out);

}  // namespace ratingd
