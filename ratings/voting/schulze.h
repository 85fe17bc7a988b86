// The Schulze method ([VasE] App., "Schulze"; Schulze 2011): the
// strongest path P(a, b) = max over paths a -> ... -> b whose every link x -> y has
// M(x, y) > 0 of the weakest link N(x, y); a beats b iff P(a, b) > P(b, a). Score
// SCHULZESCORE(a) = sum of N(a, b) over the agents b below a in the final order.
#pragma once

#include "Eigen/Core"
#include "ratings/voting/social_order.h"

namespace ratings::voting {

struct SchulzeOutcome {
  SocialOrder order = {};
  Eigen::MatrixXd strongest_paths;  // P
};

// `n` is the preference matrix N. Floyd–Warshall widest paths, O(n^3). The Schulze
// relation is a strict partial order; the final order sorts agents by how many they
// beat in it (which extends it) and breaks the remaining ties by priority.
SchulzeOutcome Schulze(const Eigen::MatrixXd& n, Priority priority);

}  // namespace ratings::voting
