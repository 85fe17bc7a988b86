// The interval parameters of the batch fits (docs/MODELS.md §5.5): `ci`, `rounds` and, for
// elo-bt, `ties`; and the computation of the intervals onto a report's ranking.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "daemon/param_table.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/agent_index.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/batch/pair_outcomes.h"
#include "ratings/batch/rating_intervals.h"
#include "ratings/batch/sco_batch.h"
#include "ratings/batch/vote_set.h"

namespace ratingd {

struct IntervalParams {
  std::string ci = "none";    // none | sandwich | bootstrap
  int64_t rounds = 100;       // bootstrap rounds, >= 2
  std::string ties = "drop";  // elo-bt: drop | half
  bool requested() const { return ci != "none"; }
};

// Adds `ci`, `rounds` (and `ties` when with_ties) to `table`, bound to `params`, with their
// value checks.
void AddIntervalParams(ParamTable& table, IntervalParams& params, bool with_ties);

// The 95% rating intervals of an elo-bt fit (`ratings`, of `votes` with `bt`): the sandwich
// on the pair outcomes, or a bootstrap refitting `rounds` resamples of the results from the
// fit (seeded by `seed`). Ties count as params.ties says.
// `tally` is the votes' PairOutcomeTally.
absl::StatusOr<std::vector<ratings::RatingInterval>> BradleyTerryIntervals(
    const ratings::PairOutcomeTally& tally, size_t votes, absl::Span<const double> ratings,
    const ratings::BradleyTerryOptions& bt, const IntervalParams& params, uint64_t seed);

// The pair counts elo-bt fits with ties=half: strict wins plus half of each tie.
std::vector<ratings::PairCount> HalfTiePairs(const ratings::PairOutcomeTally& tally);

// sco-batch's percentile bootstrap: each round solves the results resampled with
// replacement, with the solve's seed moved by the round.
absl::StatusOr<std::vector<ratings::RatingInterval>> ScoBatchIntervals(
    const ratings::VoteSet& votes, const ratings::ScoBatchOptions& options, int64_t rounds,
    uint64_t seed);

// Sets ci_low, ci_high, rank_low and rank_high of every ranking entry from the intervals,
// indexed by agent id.
void SetIntervals(absl::Span<const ratings::RatingInterval> intervals,
                  const ratings::AgentIndex& index, v1::RatingReport& report);

}  // namespace ratingd
