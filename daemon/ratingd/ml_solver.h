// The scheduled maximal-lottery solves (docs/ARCHITECTURE.md §3): each LivePool::Apply that
// makes a solve due hands over a copy of its pool; the copy is solved on the solver thread
// and the solution comes back to the consumer thread, which accepts it into the live pool
// (RecordProcessor::AcceptMlSolutions). A solution carries the partition incarnation it
// was scheduled in: one scheduled before a restore or rollback is void.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "daemon/ratingd/background_worker.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/mutex.h"

namespace ratingd {

struct MlTicket {
  int32_t partition = 0;
  uint64_t incarnation = 0;
  bool emit = true;  // false while replaying committed records: the delta was emitted before
};

struct SolvedMl {
  MlSolution solution;
  MlTicket ticket;
};

class MlSolver {
 public:
  // Each queued job holds a copy of its pool: at most this many are in flight.
  static constexpr size_t kMaxInFlight = 4;

  explicit MlSolver(Metrics* metrics) : metrics_(metrics) {}
  MlSolver(const MlSolver&) = delete;
  MlSolver& operator=(const MlSolver&) = delete;

  // Consumer thread. The caller keeps in_flight() below kMaxInFlight (WaitIdle, then take).
  void Submit(MlJob job, MlTicket ticket);
  // Consumer thread: the solutions finished so far, in submission order.
  std::vector<SolvedMl> TakeSolved();
  // Solves submitted and not yet taken.
  size_t in_flight() const { return in_flight_; }
  void WaitIdle() { worker_.WaitIdle(); }
  bool WaitIdleFor(absl::Duration timeout) {
    return worker_.WaitIdleFor(absl::ToChronoMilliseconds(timeout));
  }

 private:
  Metrics* metrics_;
  size_t in_flight_ = 0;  // consumer thread only
  Mutex mu_;
  std::vector<SolvedMl> solved_ ABSL_GUARDED_BY(mu_);
  BackgroundWorker worker_;  // last: joined first, while the members above exist
};

}  // namespace ratingd
