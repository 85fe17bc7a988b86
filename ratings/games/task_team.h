// A small fork-join team for the solvers' inner loops (docs/GAMES.md §8): the calling thread
// and `threads - 1` helpers run the tasks 0..n-1 of one Run and are all done when it returns.
// Tasks must write disjoint outputs; then the results do not depend on the thread count.
// A solver calls Run thousands of times a second, so idle helpers spin (with yields) for a
// short while before they block; and Run waits only for the tasks, never for a helper that
// has not joined in (under load a helper may not be scheduled for milliseconds, and waiting
// for it made each Run cost a time slice). Helpers live as long as the team, one solve.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace ratings::games {

class TaskTeam {
 public:
  explicit TaskTeam(int threads);
  ~TaskTeam();
  TaskTeam(const TaskTeam&) = delete;
  TaskTeam& operator=(const TaskTeam&) = delete;

  // Runs task(k) for every k in [0, n) and returns when all have run. Not reentrant; at
  // most 2^32 - 1 tasks per Run.
  void Run(size_t n, const std::function<void(size_t)>& task);

 private:
  void Help();
  // Claims and runs tasks of the Run in progress until none is left.
  void Work();

  std::vector<std::thread> helpers_;
  // The Run in progress: its task count in the high 32 bits, its next unclaimed task in
  // the low 32. A task is claimed by a compare-and-swap on the whole word, so a claim that
  // succeeds is one of the current Run's tasks, checked against that Run's own count (with
  // the count kept apart, a helper holding the last Run's word could claim a task past its
  // end while the next Run was being set up).
  std::atomic<uint64_t> claim_{0};
  std::atomic<size_t> done_{0};    // tasks of the Run in progress finished
  std::atomic<uint32_t> wake_{0};  // moves at every Run and at the end; helpers wait on it
  std::atomic<bool> stop_{false};
  const std::function<void(size_t)>* task_ = nullptr;  // written before claim_ moves
};

}  // namespace ratings::games
