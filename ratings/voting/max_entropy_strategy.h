// The maximum-entropy optimal strategy of one player of a two-player zero-sum matrix game,
// from what the LPs of strategy_lp.h found: the game value, a relative-interior optimal
// strategy and which strategies of each player are essential (in the support of some
// optimal strategy). Shared by exact maximal lotteries (docs/MODELS.md §6) and Nash
// averaging ([AE] §4.2.1; Balduzzi et al. 2018).
#pragma once

#include <vector>

#include "Eigen/Core"

namespace ratings::voting {

struct MaxEntropyStrategy {
  Eigen::VectorXd strategy;  // non-negative, sums to 1 (to 12 decimals)
  bool unique = true;        // the optimal strategies are a single point
};

// `a`: the player's payoff, own strategies x opponent's, finite, max|a| <= 1; `value`: the
// game value; `interior`: an optimal strategy positive on every own essential strategy
// (`essential[i]`) and strictly above `value` against every inessential opponent strategy
// (`!opponent_essential[j]`), e.g. the average of LP vertices covering them.
// The optimal strategies are then {x on the essential set : x >= 0, sum x = 1,
// (a^T x)_j = value where opponent_essential[j], >= value elsewhere}. If their affine hull is
// a point, that point (polished by least squares) is returned; otherwise the entropy
// -sum x log x is maximised over them by Newton's method in the hull's null-space
// coordinates with a log barrier on the inequalities (weight 1 down to 1e-12), then
// without a barrier on the face active at the end. Probabilities are rounded to 12
// decimals, so that strategies in the same situation get bit-identical probabilities.
// Should the result guarantee less than `interior` (by more than 1e-9), `interior` rounded
// is returned instead.
MaxEntropyStrategy MaximiseEntropy(const Eigen::MatrixXd& a, double value,
                                   const Eigen::VectorXd& interior,
                                   const std::vector<bool>& essential,
                                   const std::vector<bool>& opponent_essential);

}  // namespace ratings::voting
