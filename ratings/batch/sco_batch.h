// Batch Soft Condorcet Optimization (docs/MODELS.md §5): Algorithm 1 of [SCO] — minibatch
// stochastic gradient descent on the sigmoid loss (Eq. 6-7) with projection onto [min, max]
// — and the Fenchel–Young variant of §3.3.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/batch/vote_set.h"
#include "ratings/progress.h"

namespace ratings {

struct ScoBatchOptions {
  // Batch size K of Algorithm 1. Default 32 (SCO §4.2, App. D.2).
  int64_t batch = 32;
  // Number of steps T. Default 10000 (SCO App. D.2, PrefLib instances with m <= 10).
  int64_t iterations = 10000;
  // Constant learning rate alpha^t = alpha. Default 0.01 (SCO App. D.2).
  double alpha = 0.01;
  // Temperature tau of Eq. (5). Default 1 (SCO App. D.2).
  double tau = 1.0;
  // Rating bounds [theta_min, theta_max]; PROJ clips to them. Default [0, 100] (SCO §4).
  double min = 0.0;
  double max = 100.0;
  // Seed of the batch sampling (std::mt19937_64 with ratings::UniformIndex).
  uint64_t seed = 0;
  // theta^0, one rating per agent in [min, max]: a warm start from an earlier solve
  // (growing batches, docs/ACTIVE.md §3). Empty: the midpoint for every agent.
  std::vector<double> start = {};
};

struct ScoFenchelYoungOptions {
  int64_t batch = 32;          // |B|. Default 32 (SCO §4.4).
  int64_t iterations = 10000;  // T. Default 10000.
  double alpha = 0.01;         // constant learning rate. Default 0.01.
  // Scale epsilon of the Gumbel perturbation in y*_eps(theta) = E[y*(theta + eps Z)]
  // (§3.3), in rating units. Default 1.
  double epsilon = 1.0;
  // Monte Carlo draws of Z per vote in the gradient estimate (§3.3: one gives the unbiased
  // g~_FY). Default 1.
  int64_t samples = 1;
  double min = 0.0;  // PROJ bounds, default [0, 100] as for the sigmoid loss.
  double max = 100.0;
  uint64_t seed = 0;
};

// The checks of SolveScoBatch and SolveScoFenchelYoung on their options alone (the errors
// they name below), for a caller that checks them before it has data.
absl::Status CheckScoBatchOptions(const ScoBatchOptions& options);
absl::Status CheckScoFenchelYoungOptions(const ScoFenchelYoungOptions& options);

// Algorithm 1. theta^0 = `start`, or (min + max) / 2 for all votes.num_agents() agents; each step
// samples `batch` votes uniformly with replacement, computes the gradient of Eq. (7)
// (a sum over the batch, not a mean) at theta^{t-1}, steps by -alpha times it, and clips
// the touched ratings. A vote's weight scales its gradient (docs/MODELS.md §2, "weighted
// results"); tied pairs contribute nothing. For one pair a above b the descent step is
// theta_a += alpha w s(1-s)/tau, theta_b -= the same, s = sigma((theta_b - theta_a)/tau),
// the online Sco's step (sco.h). An empty vote set returns the midpoint for every agent.
// InvalidArgument if batch < 1, iterations < 0, alpha or tau <= 0 or min >= max (or
// non-finite). Deterministic for a seed; time O(iterations * batch * k^2).
absl::StatusOr<std::vector<double>> SolveScoBatch(const VoteSet& votes,
                                                  const ScoBatchOptions& options,
                                                  const ProgressFn& progress = {});

// §3.3: each step samples `batch` votes; for vote i on agents S_i with observed ranks y_i
// (in 0..|S_i|-1, the best agent |S_i|-1; tied agents share the mean of their positions)
// the gradient is y*(theta_{S_i} + eps Z) - y_i, where y* ranks the perturbed ratings the
// same way (ties broken towards the earlier standing) and Z is standard Gumbel; averaged
// over `samples` draws, weighted by the vote's weight, summed over the batch and divided
// by |B| (g~_FY). theta <- PROJ(theta - alpha g). Same errors, plus epsilon <= 0 or
// samples < 1.
absl::StatusOr<std::vector<double>> SolveScoFenchelYoung(const VoteSet& votes,
                                                         const ScoFenchelYoungOptions& options,
                                                         const ProgressFn& progress = {});

}  // namespace ratings
