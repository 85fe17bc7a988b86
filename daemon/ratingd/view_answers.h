// The HTTP API's answers read from the published views (view_store.h; docs/CONTRACTS.md
// §3.2): the pool list and the elo and sco leaderboards. Any thread; nothing here touches a
// pool or waits for the consumer thread.
#pragma once

#include <string>
#include <vector>

#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/query_queue.h"
#include "daemon/ratingd/view_store.h"
#include "ratingd/v1/report.pb.h"

namespace ratingd {

// {"pools": [{agents, partition, pool, results}]}, by partition, then pool name.
QueryReply PoolsAnswer(const Views& views);

// 404 naming the partitions this instance holds: the pool is unknown, or another instance
// holds it.
QueryReply NotHeldAnswer(const std::string& pool, const std::vector<int32_t>& held,
                         const DaemonConfig& config);

// The leaderboard query's answer for elo or sco (query.model is not ml): the `ratingctl
// rate` document of the view's leaderboard cut to query.limit agents (0: all), with the
// view's `sequence` and `committed_at`.
QueryReply LeaderboardAnswer(const Views& views, const Query& query, const DaemonConfig& config);

// A suggest query's answer for strategy uniform or ucb (not ml): the suggest document of the
// view's counts, as SuggestFromPool gives it for the pool. Counts its suggestions in
// `metrics` (may be null).
QueryReply SuggestAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                         Metrics* metrics);

// That document: the first `limit` entries of `board` (0: all) as LivePool::Report gives
// them, plus its sequence and committed_at.
v1::RatingReport ReportFromBoard(const v1::Leaderboard& board, size_t limit);

}  // namespace ratingd
