// GET /v1/pools/{pool}/agents/{agent}?model=M (docs/CONTRACTS.md §3.2): one agent's entry in
// a model's leaderboard and its rating history (docs/MODELS.md §11), from the published
// views. Any thread.
#pragma once

#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/view_store.h"

namespace ratingd {

// {pool, model, agent: the leaderboard's entry, history: [{sequence, time, rating, ci_low,
// ci_high}] oldest first, sequence, committed_at, owner}. `history` is there when this
// instance owns the pool and keeps one for the model (not ml, nor with --history-points 0):
// `time` absent for a result without an event time, the interval absent where the model
// gave none. 404: the pool is unknown, the model is off, or the agent is not in its
// leaderboard; 409: ml refused for the pool's size.
QueryReply AgentAnswer(const Views& views, const Query& query, const DaemonConfig& config);

}  // namespace ratingd
