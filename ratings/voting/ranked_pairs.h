// Ranked pairs (Tideman 1987; [VasE] App., "Ranked pairs"): lock
// the pairs a -> b with M(a, b) > 0 in decreasing order of margin unless one would close
// a cycle, then take the sources of the locked graph one by one. Score (appendix): the
// total weight M of the locked edges reachable from the agent when it is taken (each
// edge once; pentathlon C 5, A 3, B 0).
#pragma once

#include "Eigen/Core"
#include "ratings/voting/social_order.h"

namespace ratings::voting {

// `margins` is M. Pairs with margin 0 (ties, or never compared) lock no edge. Equal
// margins are taken in priority order of the winner, then of the loser; when several
// sources remain, the first by priority is taken. O(n^3 / 64 + n^2 log n).
SocialOrder RankedPairs(const Eigen::MatrixXd& margins, Priority priority);

}  // namespace ratings::voting
