// What the HTTP threads answer from (docs/ARCHITECTURE.md §3): immutable views of the
// held pools as of the last committed transaction. The consumer thread builds a pool's view
// after a transaction that changed it commits (ViewBuilder) and swaps the whole set in
// under a lock held for a pointer copy; readers take the set's pointer and never wait for
// the consumer thread, nor it for them.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "daemon/ratingd/mutex.h"
#include "ratingd/v1/delta.pb.h"
#include "ratings/model.h"
#include "ratings/rating_history.h"

namespace ratingd {

// One pool as committed. Never changes once published.
struct PoolView {
  std::string pool;
  int32_t partition = 0;
  uint32_t agents = 0;
  uint64_t results = 0;
  // The time ratingd stamped on the transaction that committed this state, just before
  // committing it.
  absl::Time committed_at;
  // By ratings::Model: the model's full leaderboard (LivePool::Leaderboard, with
  // committed_at); null if the model is off. A model that did not change since the pool's
  // previous view shares that view's leaderboard.
  std::array<std::shared_ptr<const v1::Leaderboard>, ratings::kModels.size()> boards;
  // What uniform and ucb suggestions read (SuggestCounts): the agents in id order and their
  // games and points, as ratings::GameCounts keeps them. Shared with the previous view while
  // no result was applied.
  struct Counts {
    std::vector<std::string> agents;
    std::vector<double> games;
    std::vector<double> points;
  };
  std::shared_ptr<const Counts> counts;
  // By ratings::Model, for the models the pool keeps a rating history of (elo, sco,
  // glicko2 with --history-points > 0; else null): each agent's points by agent id, as
  // committed. The points are shared with the live history (ratings::HistoryRun), which
  // never rewrites them, so a view costs a pointer per agent and copies no point.
  using AgentPoints = ratings::HistoryRun;
  std::array<std::shared_ptr<const std::vector<AgentPoints>>, ratings::kModels.size()> histories;
  // ml refused for the pool's size (its `agents` exceed ml's `max_agents`): its ml
  // leaderboard stays that of the last solve before, and is not served.
  bool ml_refused = false;
  uint32_t ml_max_agents = 0;

  const v1::Leaderboard* board(ratings::Model model) const {
    return boards[static_cast<size_t>(model)].get();
  }
};

// The pools other instances own, as the leaderboards topic last said (LeaderboardCache):
// by pool, the latest leaderboard of each model (null: none read).
struct RemoteBoards {
  using Boards = std::array<std::shared_ptr<const v1::Leaderboard>, ratings::kModels.size()>;
  absl::flat_hash_map<std::string, Boards> pools;
};

// Every view of this instance, the partitions it holds, and the other instances' pools.
struct Views {
  absl::flat_hash_map<std::string, std::shared_ptr<const PoolView>> pools;
  std::vector<const PoolView*> in_order;  // those of `pools`, by partition, then pool name
  std::vector<int32_t> held;              // ascending
  // Never null. Pools in `pools` are answered from there, whatever this says of them.
  std::shared_ptr<const RemoteBoards> remote = std::make_shared<const RemoteBoards>();
};

// Thread-safe.
class ViewStore {
 public:
  ViewStore() : views_(std::make_shared<const Views>()) {}

  // Any thread: the latest published views (never null).
  std::shared_ptr<const Views> Get() const {
    MutexLock lock(&mu_);
    return views_;
  }
  // Any thread: how many sets have been published (0 before the first).
  uint64_t generation() const {
    MutexLock lock(&mu_);
    return generation_;
  }
  // Any thread: waits until a set after generation `seen` is published, or until
  // `deadline`; returns the generation then (still `seen` at the deadline).
  uint64_t WaitNewer(uint64_t seen, std::chrono::steady_clock::time_point deadline) const {
    MutexLock lock(&mu_);
    while (generation_ == seen && published_.WaitUntil(&mu_, deadline)) {
    }
    return generation_;
  }
  // The consumer thread: replaces this instance's views (their `remote` is set to the
  // latest PublishRemote's) and wakes the waiters (it never waits for them). The previous
  // set is freed by its last reader.
  void Publish(std::shared_ptr<Views> views) {
    {
      MutexLock lock(&mu_);
      views->remote = remote_;
      views_ = std::move(views);
      ++generation_;
    }
    published_.SignalAll();
  }
  // Whether the other instances' pools are known as of this instance's start: false from
  // the leaderboard cache's start until it has read every partition of the leaderboards
  // topic to its end once (before, an answer from it could be older than a leaderboard
  // committed long ago). True without a cache. Readiness waits for it (Pipeline).
  bool remote_caught_up() const { return remote_caught_up_.load(std::memory_order_acquire); }
  void set_remote_caught_up(bool caught_up) {
    remote_caught_up_.store(caught_up, std::memory_order_release);
  }
  // The leaderboard cache's thread: replaces the other instances' pools, keeping this
  // instance's views. The views are copied (O(pools)) outside the lock, so the consumer
  // thread never waits on that copy.
  void PublishRemote(std::shared_ptr<const RemoteBoards> remote) {
    for (;;) {
      std::shared_ptr<const Views> current = Get();
      auto next = std::make_shared<Views>(*current);
      next->remote = remote;
      {
        MutexLock lock(&mu_);
        if (views_ != current) continue;  // the consumer thread published meanwhile
        remote_ = remote;
        views_ = std::move(next);
        ++generation_;
      }
      published_.SignalAll();
      return;
    }
  }

 private:
  mutable Mutex mu_;
  mutable CondVar published_;
  std::shared_ptr<const Views> views_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<const RemoteBoards> remote_ ABSL_GUARDED_BY(mu_) =
      std::make_shared<const RemoteBoards>();
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  std::atomic<bool> remote_caught_up_{true};
};

}  // namespace ratingd
