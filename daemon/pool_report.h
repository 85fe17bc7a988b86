// The report of one online model of a pool, in the shape `ratingctl rate` prints
// (docs/CONTRACTS.md §2); shared by ratingctl and ratingd's HTTP leaderboard so both say the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/model.h"
#include "ratings/pool.h"

namespace ratingd {

// method (ModelName(model)), agents, results, ranking (the first `limit` ranks; 0 = all) and
// extra:
//   params (every parameter of the model), seed (`seed` as given: the online models draw
//   nothing, so it only echoes the caller's --seed);
//   ml: lottery (agent -> probability, for the listed agents), exploitability, iterations,
//       converged.
// For ml this runs the pool's regret matching to its target (MaximalLottery::Solve), so a
// live daemon passes a copy of its pool. FailedPrecondition if the model is off or ml was
// refused for the pool's size.
absl::StatusOr<v1::RatingReport> PoolReport(ratings::Model model, ratings::Pool& pool, size_t limit,
                                            uint64_t seed);

}  // namespace ratingd
