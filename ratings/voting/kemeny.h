// Kemeny–Young, exact ([VasE] App., "Kemeny-Young"): the order
// maximising KEMENYVALUE = sum over pairs (x above y in the order) of N(x, y), with the
// appendix's score KEMENYSCORE(a) = sum of N(a, b) over the agents b below a.
#pragma once

#include <cstddef>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "ratings/voting/social_order.h"

namespace ratings::voting {

struct KemenyOptions {
  // Largest set of agents solved by the dynamic program; more is refused
  // (InvalidArgument). The limit applies to the largest strongly connected component of
  // the majority graph, not to the whole set (see Kemeny()). O(2^k k^2) time, 2^k doubles
  // (8 MiB and ~0.1 s at 20). Default 20; at most kKemenyHardMaxAgents.
  size_t max_agents = 20;
};
inline constexpr size_t kKemenyHardMaxAgents = 25;

struct KemenyOutcome {
  SocialOrder order = {};
  double value = 0.0;  // KEMENYVALUE of the order (the maximum)
};

// `n` is the preference matrix N (n x n). Exact. The agents are split into the strongly
// connected components of the weak majority graph (a -> b iff N(a,b) >= N(b,a)); every
// agent of a component beats every agent of a later one by a strict majority, so every
// Kemeny order lists the components in that order (Kemeny satisfies the extended
// Condorcet criterion, Truchon 1998: moving such a block up only gains). Each component
// is solved by a dynamic program over its subsets: g(S) = max over the first agent a of S
// of sum_{b in S, b != a} N(a, b) + g(S \ {a}). Among optimal orders the one chosen is the
// first in priority order position by position: values compared exactly when every sum of
// the component's counts is exact in double (counts on one binary grid, e.g. integers,
// totalling below 2^53), otherwise within 1e-9 of the counts' total (docs/MODELS.md §6).
// InvalidArgument when the largest component exceeds options.max_agents, naming it.
absl::StatusOr<KemenyOutcome> Kemeny(const Eigen::MatrixXd& n, const KemenyOptions& options,
                                     Priority priority);

}  // namespace ratings::voting
