#include "ratings/result.h"

#include <cmath>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace ratings {

absl::Status ValidateResult(const Result& result, const ResultLimits& limits) {
  const size_t k = result.standings.size();
  if (k < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("fewer than 2 standings (", k, "); a result orders at least two agents"));
  }
  if (k > limits.max_standings) {
    return absl::InvalidArgumentError(
        absl::StrCat("too many standings (", k, " > limit ", limits.max_standings, ")"));
  }
  if (!std::isfinite(result.weight) || result.weight <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("weight ", result.weight, " is not a finite number > 0"));
  }
  absl::flat_hash_set<std::string_view> seen;
  seen.reserve(k);
  for (size_t i = 0; i < k; ++i) {
    const Standing& s = result.standings[i];
    if (s.agent.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("standings[", i, "]: empty agent id"));
    }
    if (s.agent.size() > limits.max_agent_id_bytes) {
      return absl::InvalidArgumentError(absl::StrCat("standings[", i, "]: agent id of ",
                                                     s.agent.size(), " bytes exceeds the limit of ",
                                                     limits.max_agent_id_bytes));
    }
    if (s.rank == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("standings[", i, "]: rank 0 for agent '", s.agent, "'; ranks start at 1"));
    }
    if (s.score.has_value() && !std::isfinite(*s.score)) {
      return absl::InvalidArgumentError(
          absl::StrCat("standings[", i, "]: non-finite score for agent '", s.agent, "'"));
    }
    if (!seen.insert(s.agent).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("standings[", i, "]: agent '", s.agent, "' appears twice"));
    }
  }
  return absl::OkStatus();
}

}  // namespace ratings
