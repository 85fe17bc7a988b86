// Kemeny–Young, exact (voting-as-evaluation.md appendix, "Kemeny-Young"): the order
// maximising KEMENYVALUE = sum over pairs (x above y in the order) of N(x, y), with the
// appendix's score KEMENYSCORE(a) = sum of N(a, b) over the agents b below a.
#pragma once

#include <cstddef>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "ratings/voting/social_order.h"

namespace ratings::voting {

struct KemenyOptions {
  // Largest agent count solved; more is refused (InvalidArgument). The solver is a
  // dynamic program over subsets: O(2^n n^2) time, 2^n doubles of memory (8 MiB at 20,
  // ~1 s). Default 20; at most kKemenyHardMaxAgents.
  size_t max_agents = 20;
};
inline constexpr size_t kKemenyHardMaxAgents = 25;

struct KemenyOutcome {
  SocialOrder order = {};
  double value = 0.0;  // KEMENYVALUE of the order (the maximum)
};

// `n` is the preference matrix N (n x n). Exact: g(S) = max over the first agent a of S
// of sum_{b in S, b != a} N(a, b) + g(S \ {a}), the best order of each subset. Among
// optimal orders the one chosen is the first in priority order position by position
// (ties within 1e-9 relative). InvalidArgument above options.max_agents, naming it.
absl::StatusOr<KemenyOutcome> Kemeny(const Eigen::MatrixXd& n, const KemenyOptions& options,
                                     Priority priority);

}  // namespace ratings::voting
