// The report of one online model of a pool, in the shape `ratingctl rate` prints
// (docs/CONTRACTS.md §2); shared by ratingctl and ratingd's HTTP leaderboard so both say the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/model.h"
#include "ratings/online_bootstrap.h"
#include "ratings/pool.h"

namespace ratingd {

// method (ModelName(model)), agents, results, ranking (the first `limit` ranks; 0 = all) and
// extra:
//   params (every parameter of the model), seed (`seed` as given: the online models draw
//   nothing, so it only echoes the caller's --seed);
//   glicko2: latest_event_time (RFC 3339), when a result had one;
//   ml: lottery (agent -> probability, for the listed agents), exploitability, iterations,
//       converged.
// For ml this runs the pool's regret matching to its target (MaximalLottery::Solve), so a
// live daemon passes a copy of its pool. FailedPrecondition if the model is off or ml was
// refused for the pool's size.
absl::StatusOr<v1::RatingReport> PoolReport(ratings::Model model, ratings::Pool& pool, size_t limit,
                                            uint64_t seed);

// When an entry is provisional: in fewer than `games` results, or (glicko2) with a reported
// deviation above `rd` (lichess's 110).
struct ProvisionalRule {
  uint64_t games = 20;
  double rd = 110;
};

// The uncertainty fields ratingd publishes (docs/MODELS.md §5.6, §10), added to each entry of
// `ranking` (a ranking of `pool`'s agents, any subset, by name): `games` (the results the
// agent is in, saturated to uint32: protobuf's JSON prints 64-bit integers as strings) and
// `provisional` (ProvisionalRule); for elo and sco with `bootstrap`, `ci_low`, `ci_high` (its
// interval around the pool's point rating) and `rank_low`, `rank_high` (the rank interval
// among all the pool's agents); for glicko2 (no bootstrap) `rd`, `volatility`, `last_played`
// and the interval rating ± 1.96·rd with its rank interval. O(agents · replicas + agents log
// agents).
void AddUncertainty(ratings::Model model, const ratings::Pool& pool,
                    const ratings::OnlineBootstrap* bootstrap, const ProvisionalRule& provisional,
                    google::protobuf::RepeatedPtrField<v1::RankedAgent>& ranking);

// --inactive-after (docs/MODELS.md §12) on a ranking of `pool`'s agents in rank order (after
// AddUncertainty, whose rank intervals already leave inactive agents out): the active
// entries keep their order and are ranked 1, 2, ...; the inactive ones are dropped, or, with
// include_inactive, moved after them with `inactive` set and no rank nor rank interval.
// Nothing changes for a pool without an activity clock.
void ApplyInactivity(const ratings::Pool& pool, bool include_inactive,
                     google::protobuf::RepeatedPtrField<v1::RankedAgent>& ranking);

// extra.latest_event_time of a glicko2 report: the model's latest event time (RFC 3339), if
// any result had one.
void AddLatestEventTime(const ratings::Glicko2& model, v1::RatingReport& report);

}  // namespace ratingd
