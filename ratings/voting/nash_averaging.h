// Nash averaging of agents against tasks ([AE] §4.2.1; Balduzzi et al. 2018, "Re-evaluating
// evaluation"): the two-player zero-sum game in which the agent player picks an agent a,
// the task player a task v, and the agent player receives the score of a on v. Agents are
// rated by their expected score against the task player's maximum-entropy Nash
// equilibrium strategy. Solved exactly by linear programming (COIN-OR Clp) and an entropy
// maximisation over each player's set of equilibrium strategies (docs/MODELS.md §6).
#pragma once

#include <cstddef>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"

namespace ratings::voting {

struct NashAveragingOptions {
  // Probabilities and payoffs (scores scaled to a range of 1) at most this are zero when
  // telling each player's support from the rest, as ExactLotteryOptions::tolerance.
  double tolerance = 1e-9;
  // Games with more tasks or more agents than this are refused (InvalidArgument): the LPs
  // are dense. Default 4096.
  size_t max_size = 4096;
};

struct NashAveraging {
  // σ1 ∈ Δ(A): the agent (row) player's maximum-entropy equilibrium strategy, per agent.
  std::vector<double> agent_strategy;
  // σ2 ∈ Δ(V): the task (column) player's maximum-entropy equilibrium strategy, per task.
  std::vector<double> task_strategy;
  // θ_a = Σ_v σ2(v) · scores(v, a), per agent; the agents in σ1's support, for which the
  // equilibrium makes θ_a equal to the value, get `value` itself, so that they tie exactly.
  std::vector<double> rating;
  // The game value σ2ᵀ S σ1 (the agent player's expected score at the equilibrium).
  double value = 0;
  // The larger deviation gain of the two players against the other's strategy, in score
  // units: max(max_a θ_a − value, value − min_v (S σ1)(v)) from the unsnapped θ; ~1e-12
  // times the score range here. 0 at an exact equilibrium.
  double exploitability = 0;
};

// `scores` is tasks × agents (row v = task, column a = agent), finite. The zero-sum game:
// the agent player picks a, the task player picks v, the agent player receives
// scores(v, a), the task player its negation. Among all Nash equilibria (a product of two
// polytopes in a zero-sum game) returns the one of maximum entropy, which is unique
// (Balduzzi et al. 2018): it maximises each player's entropy separately.
//
// Method (scores scaled to [0, 1] by their overall minimum and range, which changes no
// equilibrium): one LP per player gives the value and an optimal strategy (strategy_lp.h);
// every strategy whose status those leave open is probed by an LP maximising its
// probability over its player's optimal strategies, and if that is 0, one maximising the
// opponent's slack against it (by strict complementarity one of them is positive); the
// averages of the solutions are relative-interior points, whose supports are the
// essential sets; then each player's entropy is maximised (max_entropy_strategy.h).
// Strategies are rounded to 12 decimals, so that identical agents (or tasks) get
// bit-identical probabilities. All-equal scores: both strategies uniform.
//
// InvalidArgument if `scores` has no task or no agent, a non-finite entry (named by its
// row and column), or more than options.max_size tasks or agents, or if
// options.tolerance is not in (0, 1e-3); Internal if Clp fails.
absl::StatusOr<NashAveraging> SolveNashAveraging(const Eigen::MatrixXd& scores,
                                                 const NashAveragingOptions& options = {});

}  // namespace ratings::voting
