// The voting rules the growing-batch and mean-model algorithms run on a pairwise tally
// ([AE] Table 1: Copeland, ranked pairs, iterative maximal lotteries).
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "ratings/result.h"
#include "ratings/voting/batch_tally.h"

namespace ratings::active {

enum class TallyRule { kCopeland, kRankedPairs, kMaximalLotteries };

// Sets `ranking` to the rule's order of every agent (ties by agent id). For maximal
// lotteries the order is by IML score ([VasE] Alg. 2), and `lottery`, when not null and
// of the tally's size, is set to the maximal lottery of the whole game (IML's first
// level). Errors: those of the solver (a sparse tally is refused by the matrix rules).
absl::Status RankByTallyRule(TallyRule rule, const voting::BatchTally& tally,
                             std::vector<AgentId>& ranking, std::vector<double>* lottery);

}  // namespace ratings::active
