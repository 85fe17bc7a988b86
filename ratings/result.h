// A result (docs/MODELS.md §1): the outcome of one game or one task evaluation, an ordering of
// 2..k agents with ties, and its weight. Plus the validation every entry point applies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace ratings {

// Dense index of an agent inside one pool, assigned by AgentIndex in first-seen order.
using AgentId = uint32_t;

// One agent's place in a result. Rank 1 is best; equal ranks tie.
struct Standing {
  std::string agent;
  uint32_t rank = 0;
  std::optional<double> score;  // informational; must be finite when present
};

// A result with string agent ids, as read from a file or the wire. Standings may come
// in any order: only their ranks order them.
struct Result {
  std::vector<Standing> standings;
  double weight = 1.0;  // multiplies the result's effect on every model; in (0, kMaxWeight]
};

// The largest weight a result may carry. Larger ones would move a rating by more than
// 10^7 points in one result and, repeated, overflow a model's doubles into inf and NaN.
inline constexpr double kMaxWeight = 1e6;

// Bounds on untrusted results (docs/CONTRACTS.md §1). Defaults suit files and the daemon alike.
struct ResultLimits {
  size_t max_standings = 256;       // count; the O(k^2) pair work grows with it
  size_t max_agent_id_bytes = 256;  // bytes of UTF-8
};

// Returns OK, or InvalidArgument whose message names the problem and, where there is
// one, the offending standing ("standings[2]: rank 0; ranks start at 1"). Checks: at
// least two standings, at most limits.max_standings; non-empty agent ids of at most
// limits.max_agent_id_bytes; no agent twice; rank >= 1; finite scores; 0 < weight <= kMaxWeight.
absl::Status ValidateResult(const Result& result, const ResultLimits& limits);

// What is wrong with a result, as a bounded set (the daemon's DLQ reasons and metric
// labels, docs/CONTRACTS.md §1). Checked in the order listed.
enum class ResultProblem {
  kNone,
  kTooFewStandings,
  kTooManyStandings,
  kBadWeight,
  kEmptyAgentId,
  kAgentIdTooLong,
  kZeroRank,
  kBadScore,
  kDuplicateAgent,
};
// snake_case name, e.g. "duplicate_agent".
std::string_view ResultProblemName(ResultProblem problem);
// ValidateResult's check, classified: kNone, or the first problem with *message (if
// non-null) set to the text ValidateResult would return.
ResultProblem CheckResult(const Result& result, const ResultLimits& limits, std::string* message);

// A validated result with interned ids, as the models consume it. Views, not owners:
// valid while the arrays they point into are. agents[i] has rank ranks[i]; agents are
// distinct and there are at least two.
struct IndexedResult {
  absl::Span<const AgentId> agents;
  absl::Span<const uint32_t> ranks;
  double weight = 1.0;

  size_t size() const { return agents.size(); }
};

}  // namespace ratings
