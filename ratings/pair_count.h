// One unordered pair's counts in a batch tally (docs/MODELS.md §1): the contract between the
// batch pairwise tally and the methods that only need the pairs seen (Bradley–Terry),
// so their memory stays O(agents + distinct pairs).
#pragma once

#include "ratings/result.h"

namespace ratings {

struct PairCount {
  AgentId a = 0;  // a < b
  AgentId b = 0;
  double n_ab = 0.0;  // N(a, b): total weight of results placing a strictly above b
  double n_ba = 0.0;  // N(b, a)
};

}  // namespace ratings
