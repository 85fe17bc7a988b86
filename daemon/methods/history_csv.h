// `ratingctl rate --history FILE.csv` (docs/CONTRACTS.md §2.2, docs/MODELS.md §11): every
// agent's kept history points, one per line.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "ratings/agent_index.h"
#include "ratings/pool_history.h"

namespace ratingd {

// The header `agent,sequence,time,rating,ci_low,ci_high`, then each agent's points (agents
// in first-seen order, points oldest first): time in RFC 3339 (empty when the result had
// none), numbers in their shortest round-trip form, an absent interval empty. Agent names
// are quoted as RFC 4180 says when they hold a comma, a quote or a line break.
std::string HistoryCsv(const ratings::PoolHistory& history, const ratings::AgentIndex& index);

// HistoryCsv written to `path`; an error names the path.
absl::Status WriteHistoryCsv(const std::string& path, const ratings::PoolHistory& history,
                             const ratings::AgentIndex& index);

}  // namespace ratingd
