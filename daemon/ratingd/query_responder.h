// Answers the HTTP API's queries (docs/CONTRACTS.md §3) from the held pools, between records
// on the consumer thread: the pool list and elo/sco leaderboards at once (O(limit) from the
// kept orders). An ml leaderboard is solved on a copy of the pool on a thread of its own,
// never the scheduled solves' thread, so a client asking for it cannot hold back a commit;
// at most kMaxQueuedSolves wait, further ml queries get 429.
#pragma once

#include <atomic>
#include <cstddef>
#include <future>
#include <memory>

#include "daemon/ratingd/background_worker.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/query_queue.h"

namespace ratingd {

class QueryResponder {
 public:
  static constexpr size_t kMaxQueuedSolves = 2;

  QueryResponder(const DaemonConfig& config, const PartitionRegistry* registry)
      : config_(config), registry_(registry) {}

  // Answers every queued query (or queues its ml solve).
  void Serve(QueryQueue& queue);

 private:
  QueryReply Pools() const;
  QueryReply NotHeld(const Query& query) const;
  // Replies now unless the query is an ml solve, which is queued (or refused).
  void Answer(const Query& query, std::shared_ptr<std::promise<QueryReply>> reply);

  const DaemonConfig& config_;
  const PartitionRegistry* registry_;
  std::shared_ptr<std::atomic<size_t>> queued_ = std::make_shared<std::atomic<size_t>>(0);
  BackgroundWorker solver_;  // last: joined first
};

}  // namespace ratingd
