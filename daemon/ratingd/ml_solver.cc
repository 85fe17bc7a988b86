#include "daemon/ratingd/ml_solver.h"

#include <chrono>
#include <utility>

namespace ratingd {

void MlSolver::Submit(MlJob job, MlTicket ticket) {
  ++in_flight_;
  worker_.Submit([this, job = std::move(job), ticket]() mutable {
    const auto start = std::chrono::steady_clock::now();
    MlSolution solution = LivePool::Solve(std::move(job));
    metrics_->ml_solve_duration().Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    MutexLock lock(&mu_);
    solved_.push_back({std::move(solution), ticket});
  });
}

std::vector<SolvedMl> MlSolver::TakeSolved() {
  std::vector<SolvedMl> solved;
  {
    MutexLock lock(&mu_);
    solved.swap(solved_);
  }
  in_flight_ -= solved.size();
  return solved;
}

}  // namespace ratingd
