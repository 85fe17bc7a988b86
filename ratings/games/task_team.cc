#include "ratings/games/task_team.h"

namespace ratings::games {
namespace {

// Yields before a waiting thread blocks: a Run follows the last within microseconds while
// a solver iterates, and a futex wake costs more than that.
constexpr int kSpins = 200;

}  // namespace

TaskTeam::TaskTeam(int threads) {
  for (int t = 1; t < threads; ++t) helpers_.emplace_back([this] { Help(); });
}

TaskTeam::~TaskTeam() {
  stop_.store(true, std::memory_order_release);
  wake_.fetch_add(1, std::memory_order_release);
  wake_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
}

void TaskTeam::Work() {
  uint64_t word = claim_.load(std::memory_order_acquire);
  while (true) {
    const uint64_t count = word >> 32, next = word & 0xFFFFFFFFu;
    if (next >= count) return;
    if (!claim_.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
      continue;  // `word` now holds the current value
    }
    // Claimed: the Run cannot end before this task does, so task_ is its own.
    (*task_)(next);
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == count) {
      done_.notify_one();  // the caller may be blocked in Run
    }
    word = claim_.load(std::memory_order_acquire);
  }
}

void TaskTeam::Help() {
  uint32_t seen = 0;
  while (true) {
    uint32_t now = wake_.load(std::memory_order_acquire);
    for (int spin = 0; now == seen; ++spin) {
      if (spin < kSpins) {
        std::this_thread::yield();
      } else {
        wake_.wait(seen, std::memory_order_acquire);
      }
      now = wake_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stop_.load(std::memory_order_acquire)) return;
    Work();
  }
}

void TaskTeam::Run(size_t n, const std::function<void(size_t)>& task) {
  if (helpers_.empty() || n <= 1) {
    for (size_t k = 0; k < n; ++k) task(k);
    return;
  }
  task_ = &task;
  done_.store(0, std::memory_order_relaxed);
  claim_.store(static_cast<uint64_t>(n) << 32, std::memory_order_release);  // publishes both
  wake_.fetch_add(1, std::memory_order_release);
  wake_.notify_all();
  Work();
  size_t done = done_.load(std::memory_order_acquire);
  for (int spin = 0; done < n; ++spin) {
    if (spin < kSpins) {
      std::this_thread::yield();
    } else {
      done_.wait(done, std::memory_order_acquire);
    }
    done = done_.load(std::memory_order_acquire);
  }
}

}  // namespace ratings::games
