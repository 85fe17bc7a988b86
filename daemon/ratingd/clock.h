// The time ratingd's record path reads (commit cadence, leaderboard throttle, restore
// deadlines, latency metrics): a seam so unit tests control it (tests/fakes/fake_clock.h).
#pragma once

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace ratingd {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual absl::Time Now() const = 0;
};

// Wall-clock time: the only place in ratingd that reads it.
class SystemClock final : public Clock {
 public:
  absl::Time Now() const override { return absl::Now(); }
};

}  // namespace ratingd
