// One background thread running tasks in submission order: the hand-off that keeps heavy
// work (regret-matching solves, snapshot writes) off the consumer thread (docs/ARCHITECTURE.md §3).
#pragma once

#include <chrono>
#include <deque>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "daemon/ratingd/mutex.h"

namespace ratingd {

// Thread-safe: any thread submits and waits; the worker's own thread runs the tasks.
class BackgroundWorker {
 public:
  using Task = absl::AnyInvocable<void() &&>;

  BackgroundWorker() : thread_([this] { Run(); }) {}
  // Runs the tasks already submitted, then joins.
  ~BackgroundWorker() {
    {
      MutexLock lock(&mu_);
      stopping_ = true;
    }
    wake_.SignalAll();
    thread_.join();
  }
  BackgroundWorker(const BackgroundWorker&) = delete;
  BackgroundWorker& operator=(const BackgroundWorker&) = delete;

  void Submit(Task task) {
    {
      MutexLock lock(&mu_);
      tasks_.push_back(std::move(task));
    }
    wake_.SignalAll();
  }

  // Blocks until every task submitted before the call has finished.
  void WaitIdle() {
    MutexLock lock(&mu_);
    while (!Idle()) idle_.Wait(&mu_);
  }
  // As WaitIdle, for at most `timeout`; true if idle.
  template <typename Duration>
  bool WaitIdleFor(Duration timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    MutexLock lock(&mu_);
    while (!Idle()) {
      if (!idle_.WaitUntil(&mu_, deadline)) return Idle();
    }
    return true;
  }

 private:
  bool Idle() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return tasks_.empty() && !busy_; }

  void Run() {
    while (true) {
      Task task;
      {
        MutexLock lock(&mu_);
        while (!stopping_ && tasks_.empty()) wake_.Wait(&mu_);
        if (tasks_.empty()) return;  // stopping and drained
        task = std::move(tasks_.front());
        tasks_.pop_front();
        busy_ = true;
      }
      std::move(task)();
      MutexLock lock(&mu_);
      busy_ = false;
      if (tasks_.empty()) idle_.SignalAll();
    }
  }

  Mutex mu_;
  CondVar wake_;
  CondVar idle_;
  std::deque<Task> tasks_ ABSL_GUARDED_BY(mu_);
  bool busy_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace ratingd
