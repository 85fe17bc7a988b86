// Copeland's method ([VasE] App., "Copeland"): the number of
// agents beaten head to head plus half the number of head-to-head ties,
// COPELAND(a) = |{b : M(a,b) > 0}| + 1/2 |{b != a : M(a,b) = 0}|.
#pragma once

#include <vector>

#include "ratings/voting/batch_tally.h"

namespace ratings::voting {

// Copeland scores by agent from the tally's distinct pairs, so it works on sparse
// tallies too: a pair never compared has margin 0 and counts as a tie (incomplete data).
// O(agents + pairs). Order them with OrderByScore (ties by priority).
std::vector<double> CopelandScores(const BatchTally& tally);

}  // namespace ratings::voting
