// A clock that moves only when told (docs/ARCHITECTURE.md §3: the record path reads time
// through Clock).
#pragma once

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/mutex.h"

namespace ratingd::testing {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(absl::Time start = absl::FromUnixSeconds(1'700'000'000)) : now_(start) {}
  absl::Time Now() const override {
    MutexLock lock(&mu_);
    return now_;
  }
  void Advance(absl::Duration d) {
    MutexLock lock(&mu_);
    now_ += d;
  }

 private:
  mutable Mutex mu_;
  absl::Time now_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ratingd::testing
