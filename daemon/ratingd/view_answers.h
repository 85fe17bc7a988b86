// The HTTP API's answers read from the published views (view_store.h; docs/CONTRACTS.md
// §3.2): the pool list, the leaderboards and the suggestions. Any thread; nothing here
// touches a pool, solves anything or waits for the consumer thread.
#pragma once

#include <string>
#include <vector>

#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/view_store.h"
#include "ratingd/v1/report.pb.h"

namespace ratingd {

// {"pools": [{agents, partition, pool, results}]}, by partition, then pool name.
QueryReply PoolsAnswer(const Views& views);

// 404 naming the partitions this instance holds: the pool is unknown, or another instance
// holds it.
QueryReply NotHeldAnswer(const std::string& pool, const std::vector<int32_t>& held,
                         const DaemonConfig& config);

// The leaderboard query's answer: the `ratingctl rate` document of the view's leaderboard
// of query.model cut to query.limit agents (0: all), with its `sequence` and
// `committed_at`. 404 if the model is off; 409 for ml refused for the pool's size.
QueryReply LeaderboardAnswer(const Views& views, const Query& query, const DaemonConfig& config);

// A suggest query's answer, with the view's `committed_at`: uniform and ucb from the view's
// counts, as SuggestFromPool gives them for the pool; ml from the ml leaderboard's lottery
// (its `sequence`; the draws seeded by the solve's `results`, as `ratingctl suggest` on those
// results). Counts its suggestions in `metrics` (may be null).
QueryReply SuggestAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                         Metrics* metrics);

// That document: the first `limit` entries of `board` (0: all) as LivePool::Report gives
// them (ml: with the lottery of those entries, the exploitability, iterations and
// convergence), plus its sequence and committed_at.
v1::RatingReport ReportFromBoard(const v1::Leaderboard& board, size_t limit);

}  // namespace ratingd
