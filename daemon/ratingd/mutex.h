// A mutex for the state ratingd's threads share, annotated for Clang's thread-safety
// analysis (ABSL_GUARDED_BY) like absl::Mutex, but on std::mutex: ThreadSanitizer
// understands std::mutex, while Debian's prebuilt Abseil is not built with ThreadSanitizer,
// so it cannot see absl::Mutex's synchronisation and reports races that are not there.
#pragma once

#include <mutex>

#include "absl/base/thread_annotations.h"

namespace ratingd {

class ABSL_LOCKABLE Mutex {
 public:
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }

 private:
  std::mutex mu_;
};

class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* mu_;
};

}  // namespace ratingd
