#include "ratings/result.h"

#include <cmath>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace ratings {

namespace {

// Sets *message (if non-null) and returns the problem.
ResultProblem Fail(ResultProblem problem, std::string* message, std::string text) {
  if (message != nullptr) *message = std::move(text);
  return problem;
}

}  // namespace

std::string_view ResultProblemName(ResultProblem problem) {
  switch (problem) {
    case ResultProblem::kNone:
      return "none";
    case ResultProblem::kTooFewStandings:
      return "too_few_standings";
    case ResultProblem::kTooManyStandings:
      return "too_many_standings";
    case ResultProblem::kBadWeight:
      return "bad_weight";
    case ResultProblem::kEmptyAgentId:
      return "empty_agent_id";
    case ResultProblem::kAgentIdTooLong:
      return "agent_id_too_long";
    case ResultProblem::kZeroRank:
      return "zero_rank";
    case ResultProblem::kBadScore:
      return "bad_score";
    case ResultProblem::kDuplicateAgent:
      return "duplicate_agent";
  }
  return "unknown";
}

absl::Status ValidateResult(const Result& result, const ResultLimits& limits) {
  std::string message;
  if (CheckResult(result, limits, &message) == ResultProblem::kNone) return absl::OkStatus();
  return absl::InvalidArgumentError(message);
}

ResultProblem CheckResult(const Result& result, const ResultLimits& limits, std::string* message) {
  const size_t k = result.standings.size();
  if (k < 2) {
    return Fail(
        ResultProblem::kTooFewStandings, message,
        absl::StrCat("fewer than 2 standings (", k, "); a result orders at least two agents"));
  }
  if (k > limits.max_standings) {
    return Fail(ResultProblem::kTooManyStandings, message,
                absl::StrCat("too many standings (", k, " > limit ", limits.max_standings, ")"));
  }
  if (!std::isfinite(result.weight) || result.weight <= 0) {
    return Fail(ResultProblem::kBadWeight, message,
                absl::StrCat("weight ", result.weight, " is not a finite number > 0"));
  }
  if (result.weight > kMaxWeight) {
    return Fail(ResultProblem::kBadWeight, message,
                absl::StrCat("weight ", result.weight, " exceeds the limit of ", kMaxWeight));
  }
  // Repeated agents: by pairs for the usual few standings (no allocation), by a hash set
  // for many.
  constexpr size_t kPairwiseMax = 16;
  absl::flat_hash_set<std::string_view> seen;
  if (k > kPairwiseMax) seen.reserve(k);
  const auto repeated = [&](size_t i) {
    const std::string& agent = result.standings[i].agent;
    if (k > kPairwiseMax) return !seen.insert(agent).second;
    for (size_t j = 0; j < i; ++j) {
      if (result.standings[j].agent == agent) return true;
    }
    return false;
  };
  for (size_t i = 0; i < k; ++i) {
    const Standing& s = result.standings[i];
    if (s.agent.empty()) {
      return Fail(ResultProblem::kEmptyAgentId, message,
                  absl::StrCat("standings[", i, "]: empty agent id"));
    }
    if (s.agent.size() > limits.max_agent_id_bytes) {
      return Fail(ResultProblem::kAgentIdTooLong, message,
                  absl::StrCat("standings[", i, "]: agent id of ", s.agent.size(),
                               " bytes exceeds the limit of ", limits.max_agent_id_bytes));
    }
    if (s.rank == 0) {
      return Fail(
          ResultProblem::kZeroRank, message,
          absl::StrCat("standings[", i, "]: rank 0 for agent '", s.agent, "'; ranks start at 1"));
    }
    if (s.score.has_value() && !std::isfinite(*s.score)) {
      return Fail(ResultProblem::kBadScore, message,
                  absl::StrCat("standings[", i, "]: non-finite score for agent '", s.agent, "'"));
    }
    if (repeated(i)) {
      return Fail(ResultProblem::kDuplicateAgent, message,
                  absl::StrCat("standings[", i, "]: agent '", s.agent, "' appears twice"));
    }
  }
  return ResultProblem::kNone;
}

}  // namespace ratings
