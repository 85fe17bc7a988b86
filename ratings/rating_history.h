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
#include <memory>
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

// The points of a history as they were when Share() was called, to be read on another
// thread while the history goes on: the history never writes to the points a run covers
// (it appends past them, or moves to a new buffer when it grows or thins), and the run keeps
// its buffer alive.
struct HistoryRun {
  std::shared_ptr<const HistoryPoint[]> buffer;
  size_t size = 0;
  absl::Span<const HistoryPoint> points() const { return {buffer.get(), size}; }
};

// Not thread-safe; one owner, who also calls Share(); the runs it returns may be read on any
// thread. Deterministic: the same points added give the
// same history. A copy has its own buffer.
class RatingHistory {
 public:
  // Precondition: capacity >= 4.
  explicit RatingHistory(size_t capacity);
  RatingHistory(const RatingHistory& other);
  RatingHistory& operator=(const RatingHistory& other);
  // A moved-from history is empty.
  RatingHistory(RatingHistory&& other) noexcept;
  RatingHistory& operator=(RatingHistory&& other) noexcept;

  // Appends `point` (its sequence is expected to grow from one point to the next); when the
  // history holds `capacity` points, first keeps only the even positions (0, 2, ...) of
  // the oldest ⌊capacity/2⌋ points. O(capacity) then, O(1) otherwise.
  void Add(const HistoryPoint& point) { Append() = point; }
  // Add without the point: makes room for it as Add does and returns it, for the caller to
  // write every field of (its content is unspecified until then). Writing the fields in place
  // spares the copy of a point just built, whose read back from memory stalls behind the stores
  // before it.
  HistoryPoint& Append();

  // Oldest first.
  absl::Span<const HistoryPoint> points() const { return {buffer_.get(), size_}; }
  // The points as they are now, shared rather than copied (see HistoryRun): O(1). A buffer
  // never shared is thinned in place; once shared, the next thinning moves to a new one.
  HistoryRun Share() const {
    shared_ = true;
    return {.buffer = buffer_, .size = size_};
  }
  size_t capacity() const { return capacity_; }
  // Points of memory held: grows with the history (doubling), never beyond capacity().
  size_t reserved() const { return reserved_; }

 private:
  // Moves the points (with `thin`, those the thinning keeps) to a new buffer of `reserved`.
  void Reallocate(size_t reserved, bool thin);

  size_t capacity_;
  std::shared_ptr<HistoryPoint[]> buffer_;
  size_t size_ = 0;
  size_t reserved_ = 0;
  mutable bool shared_ = false;  // Share() was called since buffer_ was allocated
};

}  // namespace ratings
