// Batch Elo (docs/MODELS.md §5): the Bradley–Terry maximum-likelihood (maximum a posteriori with
// the prior below) ratings, by the minorization–maximization (MM) algorithm of Hunter
// (2004, "MM algorithms for generalized Bradley–Terry models", §3), as bayeselo computes
// them; reported on the Elo scale. [SCO] (§4, "For Elo ratings") and [AE] (§4.1 BATCHELO)
// use this fit as "Elo".
//
// Input is the list of distinct pairs seen (PairCount), so memory is O(agents + pairs)
// and never O(agents^2) (docs/CONTRACTS.md §5 row 5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/pair_count.h"
#include "ratings/progress.h"

namespace ratings {

struct BradleyTerryOptions {
  // Prior strength: virtual draws of every agent against one fixed reference agent of
  // rating `anchor` (each virtual draw = half a win and half a loss). Default 2 (one
  // virtual win and one virtual loss per agent). Because the prior is per agent and
  // against a fixed reference — not bayeselo's virtual draws between every pair of
  // opponents — its pull does not grow or shrink with the number of agents, so ratings
  // are not squashed as the pool grows. It also makes the MAP finite when an agent won or
  // lost everything. 0 = plain maximum likelihood, which needs a strongly connected
  // comparison graph (Hunter 2004, Assumption 1).
  double prior = 2.0;
  // Elo points of the reference agent (prior > 0) or of the mean rating (prior = 0).
  // Default 1500, the online Elo's initial rating (docs/MODELS.md §2).
  double anchor = 1500.0;
  // Stop when no rating moves by more than this many Elo points in one MM iteration.
  // Default 1e-4.
  double tolerance = 1e-4;
  // Cap on MM steps (evaluations of Hunter's update). Default 10000.
  int64_t max_iterations = 10000;
  // SQUAREM acceleration of the MM steps (Varadhan & Roland 2008): the same fixed point
  // in far fewer steps when MM is slow; every jump is checked not to lower the
  // log-posterior. Default on; off gives plain MM, one step per iteration.
  bool accelerate = true;
  // Starting ratings (Elo scale), one per agent: a warm start from an earlier fit of
  // similar data (growing batches, docs/ACTIVE.md §3). Empty: every agent at the anchor.
  std::vector<double> start = {};
};

struct BradleyTerryFit {
  std::vector<double> ratings;  // Elo scale: P(i beats j) = 1 / (1 + 10^((r_j - r_i)/400))
  int64_t iterations = 0;
  bool converged = false;
  double last_change = 0.0;  // largest rating move of the last iteration, Elo points
};

// InvalidArgument naming the option if prior is negative or not finite, anchor not finite,
// tolerance not finite and > 0, or max_iterations < 1: FitBradleyTerry's checks of its
// options alone, for a caller that checks them before it has data.
absl::Status CheckBradleyTerryOptions(const BradleyTerryOptions& options);

// Fits num_agents agents to the pairs. Pairs count strict orders only (PairCount): ties
// carry no weight here. Errors (InvalidArgument): options out of range; a pair with
// a >= b, an id >= num_agents or a negative or non-finite count; prior = 0 with a
// comparison graph that is not strongly connected (the maximum-likelihood ratings would
// diverge). Time O(iterations * (agents + pairs)).
absl::StatusOr<BradleyTerryFit> FitBradleyTerry(size_t num_agents,
                                                absl::Span<const PairCount> pairs,
                                                const BradleyTerryOptions& options,
                                                const ProgressFn& progress = {});

}  // namespace ratings
