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

// BATCHNASHAVERAGING (§4.2.1): after the burn-in, the task from the task player's
// maximum-entropy equilibrium strategy and the pair (distinct) from the agent player's, both
// mixed with `exploration`; the game is the running mean scores (ratings/voting/
// nash_averaging.h), solved every round; rank by expected score against the task strategy.
std::unique_ptr<Evaluator> MakeBatchNashAveraging(size_t tasks, size_t agents,
                                                  const AlgorithmOptions& o);

// ONLINEMAXIMALLOTTERIES / ONLINENASHAVERAGING (§4.2.2, App. A): two regret-matching bandits
// in self-play on the margin game (agent vs agent; +1 win, -1 loss, 0 tie; uniform task)
// or on the agent-vs-task game (utility = score / 100; the task is the column player's
// draw, both agents the row player's, distinct). Sampling strategies mix in `exploration`;
// the ranking sorts each agent's mean utility against the column player's average strategy.
std::unique_ptr<Evaluator> MakeOnlineMaximalLotteries(size_t tasks, size_t agents,
                                                      const AlgorithmOptions& o);
std::unique_ptr<Evaluator> MakeOnlineNashAveraging(size_t tasks, size_t agents,
                                                   const AlgorithmOptions& o);

// PROPORTIONALREPRESENTATION (§4.2): a mean model; each round the evaluation set E =
// GreedyRepresentativeTasks of the estimated task rankings with g = o.prop_rep_g; the task
// is uniform in E with probability 1 - o.exploration, else uniform in V; agents uniform
// (after the burn-in); ranking = ranked pairs over E's estimated rankings.
std::unique_ptr<Evaluator> MakeProportionalRepresentation(size_t tasks, size_t agents,
                                                          const AlgorithmOptions& o);

// KEMENYEL (§4.1.2), as docs/ACTIVE.md §3 reads it: uniform task; the pair uniform among
// those not yet resolved by a Hoeffding bound at confidence 1 - δ_k (all pairs when every
// one is resolved); epoch k (δ_k = 0.1 / 2^k) ends when each open pair has n_k samples;
// ranking = the exact Kemeny ranking of the win-rate matrix Q.
std::unique_ptr<Evaluator> MakeKemenyEl(size_t tasks, size_t agents);

// The greedy g-positional representation cover of docs/ACTIVE.md §3: `ranks[v][a]` is a's
// rank in task v's ranking (1 = best, 0 = unranked). E must rank every agent a in its top
// r at least floor(|{v : a in top r of v}| / g) times, for every r; tasks are added one by
// one, each the one covering the most outstanding (a, r) requirements (ties: lower id),
// until none is left. Returns E in the order chosen.
std::vector<TaskId> GreedyRepresentativeTasks(const std::vector<std::vector<uint32_t>>& ranks,
                                              size_t agents, int64_t g);

}  // namespace ratings::active
