#include "ratings/games/task_team.h"

namespace ratings::games {

TaskTeam::TaskTeam(int threads) {
  for (int t = 1; t < threads; ++t) helpers_.emplace_back([this] { Help(); });
}

TaskTeam::~TaskTeam() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  for (std::thread& helper : helpers_) helper.join();
}

void TaskTeam::Drain() {
  const size_t count = count_;
  for (size_t k = next_.fetch_add(1, std::memory_order_relaxed); k < count;
       k = next_.fetch_add(1, std::memory_order_relaxed)) {
    (*task_)(k);
  }
}

void TaskTeam::Help() {
  uint64_t seen = 0;
  while (true) {
    uint64_t now = generation_.load(std::memory_order_acquire);
    while (now == seen) {
      std::this_thread::yield();
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stop_.load(std::memory_order_acquire)) return;
    Drain();
    finished_.fetch_add(1, std::memory_order_acq_rel);
  }
}

void TaskTeam::Run(size_t n, const std::function<void(size_t)>& task) {
  if (helpers_.empty() || n <= 1) {
    for (size_t k = 0; k < n; ++k) task(k);
    return;
  }
  task_ = &task;
  count_ = n;
  next_.store(0, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  Drain();
  // Every helper has left this generation before the next Run changes task_ and count_.
  while (finished_.load(std::memory_order_acquire) < helpers_.size()) std::this_thread::yield();
}

}  // namespace ratings::games
