// The HTTP API's answers read from the published views (view_store.h; docs/CONTRACTS.md
// §3.2): the pool list, the leaderboards and the suggestions. Any thread; nothing here
// touches a pool, solves anything or waits for the consumer thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "daemon/ratingd/answer_cache.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/view_store.h"
#include "ratingd/v1/report.pb.h"

namespace ratingd {

// {"pools": [{agents, models, owner, partition, pool, results}]}, by partition, then pool
// name: this instance's pools (owner true) and, from the leaderboards topic, the others'
// (owner false; agents and results of their elo leaderboard, or else of the first there
// is). `models`: those whose leaderboard is answered (on, and ml not refused; for another
// instance's pool, those the topic has), in the order elo, sco, ml.
QueryReply PoolsAnswer(const Views& views);

// The leaderboard of `pool` and `model` an answer reads: this instance's view's if it owns
// the pool (view set), else the leaderboards topic's (remote); board null if there is none.
struct BoardRef {
  const v1::Leaderboard* board = nullptr;
  std::shared_ptr<const v1::Leaderboard> shared;  // owns `board`
  const PoolView* view = nullptr;
  bool remote = false;
  bool ml_refused() const {
    return view != nullptr && view->ml_refused && board != nullptr &&
           board->model() == ratings::ModelName(ratings::Model::kMl);
  }
};
BoardRef FindBoard(const Views& views, const std::string& pool, ratings::Model model);

// 404 naming the partitions this instance holds: the pool is unknown, or another instance
// holds it.
QueryReply NotHeldAnswer(const std::string& pool, const std::vector<int32_t>& held,
                         const DaemonConfig& config);

// The leaderboard query's answer: the `ratingctl rate` document of FindBoard's leaderboard
// of query.model cut to query.limit agents (0: all), with its `sequence`, `committed_at`
// and `owner`. 404 if the model is off or the topic has no such leaderboard; 409 for ml
// refused for the pool's size. With a cache, a leaderboard's answer for one limit is rendered
// once (AnswerCache).
QueryReply LeaderboardAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                             AnswerCache* cache = nullptr);

// A suggest query's answer (404 naming the pool's partition for a pool another instance
// owns), with the view's `committed_at`: uniform and ucb from the view's
// counts, as SuggestFromPool gives them for the pool; ml from the ml leaderboard's lottery
// (its `sequence`; the draws seeded by the solve's `results`, as `ratingctl suggest` on those
// results). Counts its suggestions in `metrics` (may be null).
QueryReply SuggestAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                         Metrics* metrics);

// That document: the first `limit` entries of `board` (0: all) as LivePool::Report gives
// them (ml: with the lottery of those entries, the exploitability, iterations and
// convergence), plus its sequence and committed_at. The board's inactive entries
// (--inactive-after) are left out unless include_inactive.
v1::RatingReport ReportFromBoard(const v1::Leaderboard& board, size_t limit,
                                 bool include_inactive = false);

}  // namespace ratingd
