#include "daemon/ratingd/ml_solver.h"

#include <chrono>
#include <memory>
#include <utility>

namespace ratingd {

void MlSolver::Submit(MlJob job, MlTicket ticket) {
  ++in_flight_;
  auto shared = std::make_shared<MlJob>(std::move(job));
  worker_.Submit([this, shared, ticket] {
    const auto start = std::chrono::steady_clock::now();
    MlSolution solution = LivePool::Solve(std::move(*shared));
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
