// Answers the HTTP API's queries (docs/CONTRACTS.md §3) from the held pools, between records
// on the consumer thread: the pool list and elo/sco leaderboards at once (O(limit) from the
// kept orders). An ml leaderboard is solved on a copy of the pool on a thread of its own,
// never the scheduled solves' thread, so a client asking for it cannot hold back a commit,
// and its answer is kept: a pool's ml answer is reused while the pool is unchanged or for
// kMlAnswerMaxAge, queries for a pool being solved wait for that solve, and beyond
// kMaxQueuedSolves pools being solved further ml queries get 429. So clients hammering the
// API cost at most one solve per pool and kMlAnswerMaxAge, and bounded memory. Suggestions
// (/v1/pools/{pool}/suggest, docs/ACTIVE.md §6) are answered the same way: uniform and ucb
// at once from the pool's game counts (O(agents + n log n)), ml from the kept or shared ml
// answer, so from the pool as it was at that solve (the reply's `sequence`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "daemon/ratingd/background_worker.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/mutex.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/query_queue.h"
#include "google/protobuf/struct.pb.h"
#include "ratingd/v1/report.pb.h"

namespace ratingd {

class QueryResponder {
 public:
  static constexpr size_t kMaxQueuedSolves = 2;
  static constexpr absl::Duration kMlAnswerMaxAge = absl::Seconds(1);

  // Runs an ml solve for a query; by default on the responder's own thread. Tests pass one
  // that holds solves until told to run them.
  using SolveRunner = std::function<void(std::function<void()>)>;

  QueryResponder(const DaemonConfig& config, const PartitionRegistry* registry, const Clock* clock,
                 SolveRunner run_solve = nullptr, Metrics* metrics = nullptr)
      : config_(config),
        registry_(registry),
        clock_(clock),
        metrics_(metrics),
        run_solve_(run_solve ? std::move(run_solve)
                             : [this](std::function<void()> solve) { solver_.Submit(solve); }) {}

  // Answers every queued query (or queues its ml solve).
  void Serve(QueryQueue& queue);

 private:
  using Reply = std::shared_ptr<std::promise<QueryReply>>;
  struct Waiter {
    Reply reply;
    Query query;  // a leaderboard or a suggest query
  };
  struct MlAnswer {
    uint64_t results = 0;  // the pool's results when solved
    absl::Time solved_at;
    std::shared_ptr<const v1::RatingReport> report;  // every agent
  };

  QueryReply Pools() const;
  QueryReply NotHeld(const Query& query) const;
  void Answer(const Query& query, Reply reply);
  void AnswerMl(const Query& query, const LivePool& live, Reply reply);
  // A suggest query for a held pool: uniform and ucb now, ml through AnswerMl.
  void AnswerSuggest(const Query& query, const LivePool& live, Reply reply);
  // The reply to a leaderboard or suggest query from a pool's ml answer (any thread).
  QueryReply FromMlAnswer(const Query& query, uint64_t results, const v1::RatingReport& full);
  // 200 with the suggest document; counts its suggestions.
  QueryReply SuggestReply(const Query& query, const google::protobuf::Struct& document);
  // On the query solver thread: solves the copy, keeps the answer, replies to the waiters.
  void Solve(const std::string& pool, ratings::Pool& copy);

  const DaemonConfig& config_;
  const PartitionRegistry* registry_;
  const Clock* clock_;
  Metrics* metrics_;  // may be null (tests)
  SolveRunner run_solve_;
  Mutex mu_;
  absl::flat_hash_map<std::string, MlAnswer> answers_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::vector<Waiter>> solving_ ABSL_GUARDED_BY(mu_);
  BackgroundWorker solver_;  // last: joined first
};

}  // namespace ratingd
