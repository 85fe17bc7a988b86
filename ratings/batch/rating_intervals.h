// How sure a batch fit is (docs/MODELS.md §5.5): 95% confidence intervals of Bradley–Terry
// ratings by the sandwich (robust) covariance of the fit or by bootstrap, and the rank
// interval LMArena derives from rating intervals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/result.h"

namespace ratings {

// The normal quantile of a two-sided 95% interval.
inline constexpr double kZ95 = 1.959963984540054;

// The sandwich needs dense agents x agents matrices: at most this many agents.
inline constexpr size_t kMaxSandwichAgents = 4096;

// One unordered pair's outcomes, a < b: how many comparisons a won, b won, and tied.
struct PairOutcomes {
  AgentId a = 0;
  AgentId b = 0;
  double a_wins = 0.0;
  double b_wins = 0.0;
  double ties = 0.0;  // counted as half a win each (docs/MODELS.md §5.5, ties=half)
};

struct RatingInterval {
  double low = 0.0;
  double high = 0.0;
};

// The 95% interval of each Bradley–Terry rating `ratings` (Elo scale, the fit of `pairs`
// with `options.prior` and `options.anchor`), from the sandwich covariance H⁻¹ J H⁻¹ of the
// log-strengths: H the Hessian of the negative log-posterior (data and prior), J the sum
// of the outer products of the data's per-comparison scores, a tie scoring as the outcome
// 1/2. With prior > 0 the ratings are relative to the fixed reference; with prior = 0 to
// their mean (H's pseudo-inverse on the sum-zero subspace). InvalidArgument above
// kMaxSandwichAgents agents or for sizes that disagree. O(n^3 + pairs).
absl::StatusOr<std::vector<RatingInterval>> SandwichIntervals(absl::Span<const PairOutcomes> pairs,
                                                              absl::Span<const double> ratings,
                                                              const BradleyTerryOptions& options);

// Percentile bootstrap: `fit(weights)` rates the results with result v counted weights[v]
// times; each of `rounds` rounds draws the results' multiplicities by resampling them with
// replacement (n draws of a uniform index, std::mt19937_64(seed), ratings/seeded_draws.h),
// and the interval is the 2.5% and 97.5% quantiles (linear interpolation between order
// statistics) of each agent's rating over the rounds. InvalidArgument for rounds < 2;
// the first error of `fit` otherwise.
using WeightedFit =
    std::function<absl::StatusOr<std::vector<double>>(absl::Span<const uint32_t> weights)>;
absl::StatusOr<std::vector<RatingInterval>> BootstrapIntervals(size_t results,
                                                               const WeightedFit& fit,
                                                               int64_t rounds, uint64_t seed);

// LMArena's rank interval of each agent: best = 1 + the number of agents whose low end is
// above this agent's high end; worst = the number of agents - the number whose high end is
// below this agent's low end. O(n log n).
struct RankInterval {
  uint32_t best = 0;
  uint32_t worst = 0;
};
std::vector<RankInterval> RankIntervals(absl::Span<const RatingInterval> intervals);

}  // namespace ratings
