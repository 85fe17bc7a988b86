// The algorithms of [AE] Table 1 by family (docs/ACTIVE.md §3). algorithms.h names them;
// these are the constructors behind the names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "ratings/active/algorithm_options.h"
#include "ratings/active/evaluator.h"
#include "ratings/active/tally_rule.h"

namespace ratings::active {

// UNIFORMAVERAGING (§4.1): uniform task and pair; ranking by each agent's mean score over
// all its samples, descending (agents never sampled last).
std::unique_ptr<Evaluator> MakeUniformAveraging(size_t tasks, size_t agents);

// BASICUCB (§4.1.1): uniform task; the two agents of highest
// UCB(a) = s̄_a + C sqrt(log(2T) / T_a) (T rounds so far, T_a samples of a; unsampled
// agents first); ranking by sample count T_a, descending.
std::unique_ptr<Evaluator> MakeBasicUcb(size_t tasks, size_t agents, double c);

// ONLINEELO / ONLINESCO (§4.2): uniform task and pair; one online Elo update (K, initial)
// or one SCO step per sample (equal scores: an Elo draw, no SCO step).
// InvalidArgument for options the model refuses.
absl::StatusOr<std::unique_ptr<Evaluator>> MakeOnlineElo(size_t tasks, size_t agents,
                                                         const AlgorithmOptions& o);
absl::StatusOr<std::unique_ptr<Evaluator>> MakeOnlineSco(size_t tasks, size_t agents,
                                                         const AlgorithmOptions& o);

// Growing batch (§4.2): the offline method re-run each round on every sample so far,
// after the burn-in. Uniform selection, except BATCHMAXIMALLOTTERIES, whose pairs come
// from the current maximal lottery mixed with uniform exploration.
enum class BatchMethod { kElo, kCopeland, kRankedPairs, kMaximalLotteries, kSco };
std::unique_ptr<Evaluator> MakeGrowingBatch(BatchMethod method, size_t tasks, size_t agents,
                                            const AlgorithmOptions& o, uint64_t seed);

// Mean model (§4.2): the running mean s̄_{v,a} of every (task, agent); the estimated task
// rankings sort them; a voting rule over those rankings ranks the agents. Burn-in, then
// uniform selection.
std::unique_ptr<Evaluator> MakeMeanModel(TallyRule rule, size_t tasks, size_t agents,
                                         const AlgorithmOptions& o);

}  // namespace ratings::active
