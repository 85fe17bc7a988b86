// Exact maximal lotteries (docs/MODELS.md §6; [VasE] App. "Maximal
// Lotteries", Eq. 6; Fishburn 1984): a lottery p with p^T M q >= 0 for every lottery q,
// solved by linear programming with COIN-OR Clp — and, when several lotteries are
// maximal (margins tie), the one of maximum entropy, which is unique and gives agents in
// the same situation the same probability.
#pragma once

#include <cstddef>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"

namespace ratings::voting {

struct ExactLotteryOptions {
  // Probabilities and column payoffs (M scaled to max|M| = 1) at most this are zero when
  // telling the support from the rest, and so are scaled margins |M(a,b)| / max|M| (ties).
  // Default 1e-9.
  double tolerance = 1e-9;
  // Larger margin games are refused (InvalidArgument): the LP is dense. Default 4096.
  size_t max_agents = 4096;
};

struct ExactLottery {
  std::vector<double> lottery = {};  // p: non-negative, sums to 1
  // Expected margin against the lottery, (M p)(a) / max|M|, in [-1, 1] (the ML
  // rating of docs/MODELS.md §4; <= 0 up to rounding, 0 on the support); all 0 when M = 0.
  std::vector<double> rating = {};
  // max_a (M p)(a) / max|M| (the game value is 0): the certificate, ~1e-12 here.
  double exploitability = 0.0;
  // True when exactly one lottery is maximal (no entropy step was needed).
  bool unique = true;
  int linear_programs = 0;  // Clp solves used
};

// `margins` is M (skew-symmetric, finite). Method:
//  1. one LP, max v s.t. sum_i p_i M(i, j) >= v for all j, sum p = 1, p >= 0 (v* = 0);
//  2. the essential set E (agents in the support of some maximal lottery): every agent j
//     outside the support with a zero column payoff is probed by an LP maximising p_j
//     over the maximal lotteries, and if that is 0, one maximising its payoff (by strict
//     complementarity one of them is positive); the average of the solutions is a
//     relative-interior point of the set of maximal lotteries;
//  3. the set of maximal lotteries is {x on E : x >= 0, sum x = 1, (M^T x)_j = 0 for j
//     in E, (M^T x)_j >= 0 for j outside E}. If its affine hull is a point, that is the
//     answer; otherwise the entropy -sum x log x is maximised over it by Newton's method
//     in the hull's null-space coordinates with a log barrier on the remaining
//     inequalities (barrier weight 1 down to 1e-12).
// InvalidArgument if M is not square, skew-symmetric and finite, or above max_agents;
// Internal if Clp fails.
absl::StatusOr<ExactLottery> SolveMaximalLottery(const Eigen::MatrixXd& margins,
                                                 const ExactLotteryOptions& options = {});

}  // namespace ratings::voting
