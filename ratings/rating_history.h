// A bounded history of one agent's rating in one model (docs/MODELS.md §11): the points
// {sequence, time, rating, ci_low, ci_high} recorded after the agent's results, at most
// `capacity` of them, in at most that much memory (taken as the history grows). When the history is
// full, every second point of its older half is dropped before the new one is added, so that the
// older a stretch of the history, the further apart its points; the first point and the newest are
// always kept.
//
//   RatingHistory h(128);
//   h.Add({.sequence = pool.results(), .time = t, .rating = r, .ci_low = lo, .ci_high = hi});
//   for (const HistoryPoint& p : h.points()) ...   // oldest first
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "absl/types/span.h"

namespace ratings {

struct HistoryPoint {
  uint64_t sequence = 0;                // the pool's result count when the point was taken
  std::optional<absl::Time> time = {};  // the result's event time, if it had one
  double rating = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
};

// Not thread-safe; one owner. Deterministic: the same points added give the same history.
class RatingHistory {
 public:
  // Precondition: capacity >= 4.
  explicit RatingHistory(size_t capacity);

  // Appends `point` (its sequence is expected to grow from one point to the next); when the
  // history holds `capacity` points, first keeps only the even positions (0, 2, ...) of
  // the oldest ⌊capacity/2⌋ points. O(capacity) then, O(1) otherwise.
  void Add(const HistoryPoint& point);

  // Oldest first.
  absl::Span<const HistoryPoint> points() const { return points_; }
  size_t capacity() const { return capacity_; }
  // Points of memory held: grows with the history (doubling), never beyond capacity().
  size_t reserved() const { return points_.capacity(); }

 private:
  size_t capacity_;
  std::vector<HistoryPoint> points_;
};

}  // namespace ratings
