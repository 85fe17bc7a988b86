// Iterative maximal lotteries ([VasE] App., Algorithm 2, and the
// IMLScore defined after it): solve the margin game, remove the support (the winners
// of the level) and repeat on the rest, so each level holds a game-theoretic cycle.
#pragma once

#include <utility>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "ratings/result.h"
#include "ratings/voting/exact_lottery.h"

namespace ratings::voting {

struct ImlOutcome {
  // Levels from the top (W in Algorithm 2): the winners of each round with their
  // probability in that round's maximal lottery, by probability descending.
  std::vector<std::vector<std::pair<AgentId, double>>> levels = {};
  // IMLScore(a) = LEVEL(a) + x(a): LEVEL is |W| - 1 for the top level down to 0 for the
  // bottom one, x(a) the agent's probability within its level (pentathlon: C 3, A 2, B 1).
  std::vector<double> score = {};
  // The largest exploitability of the rounds' lotteries (each on its own sub-game).
  double exploitability = 0.0;
};

// `margins` is M. Each round takes the maximum-entropy maximal lottery of the sub-game
// (SolveMaximalLottery), whose support is the union of all maximal lotteries' supports:
// agents in a cycle all leave in the same round, and tied agents get equal probability.
// Line 9 of Algorithm 2 is done on M by deleting rows and columns, as the paper notes.
// Errors: those of SolveMaximalLottery.
absl::StatusOr<ImlOutcome> IterativeMaximalLotteries(const Eigen::MatrixXd& margins,
                                                     const ExactLotteryOptions& options = {});

}  // namespace ratings::voting
