// Whether this instance is ready to serve (GET /readyz, docs/CONTRACTS.md §3), with the
// reason when it is not. Written by the consumer thread, read by the HTTP threads.
#pragma once

#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "daemon/ratingd/mutex.h"

namespace ratingd {

class Readiness {
 public:
  void Set(bool ready, std::string reason) {
    MutexLock lock(&mu_);
    ready_ = ready;
    reason_ = std::move(reason);
  }
  bool ready() const {
    MutexLock lock(&mu_);
    return ready_;
  }
  // (ready, why not: empty when ready)
  std::pair<bool, std::string> Get() const {
    MutexLock lock(&mu_);
    return {ready_, reason_};
  }

 private:
  mutable Mutex mu_;
  bool ready_ ABSL_GUARDED_BY(mu_) = false;
  std::string reason_ ABSL_GUARDED_BY(mu_) = "starting: not yet in the consumer group";
};

}  // namespace ratingd
