// A small fork-join team for the solvers' inner loops (docs/GAMES.md §8): the calling thread
// and `threads - 1` helpers run the tasks 0..n-1 of one Run and are all done when it returns.
// Tasks must write disjoint outputs; then the results do not depend on the thread count.
// Helpers wait by spinning (with yields) between Runs, since a solver calls Run thousands of
// times a second; they exist only as long as the team, one solve.
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

  // Runs task(k) for every k in [0, n) and returns when all have run. Not reentrant.
  void Run(size_t n, const std::function<void(size_t)>& task);

 private:
  void Help();
  void Drain();

  std::vector<std::thread> helpers_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<size_t> next_{0};
  std::atomic<size_t> finished_{0};  // helpers done with the current generation
  std::atomic<bool> stop_{false};
  size_t count_ = 0;                                   // written before generation_ moves
  const std::function<void(size_t)>* task_ = nullptr;  // likewise
};

}  // namespace ratings::games
