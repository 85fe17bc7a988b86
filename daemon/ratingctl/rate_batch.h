// The whole-profile methods of `ratingctl rate` (docs/MODELS.md §5):
// elo-bt, sco-batch, sco-fy. rate.cc dispatches here; parameters, defaults and
// extra outputs are documented per method below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "daemon/ratingctl/rate.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/read_results.h"

namespace ratingd {

// "elo-bt", "sco-batch", "sco-fy".
std::vector<std::string> BatchMethodNames();
bool IsBatchMethod(absl::string_view method);

// Rates `records` with config.method (one of BatchMethodNames()). Parameters
// (--param key=value, defaults in brackets; all land in extra.params):
//   elo-bt:    prior [2], anchor [1500], tolerance [1e-4], max_iterations [10000],
//              accelerate [1] (SQUAREM; 0 = plain MM), permutations [0]; with
//              permutations > 0 the permutation-averaged online Elo ([EU] §7)
//              replaces the MM fit, with k [32] and initial [1500].
//   sco-batch: batch [32], iterations [10000], alpha [0.01], tau [1], min [0], max [100].
//   sco-fy:    batch [32], iterations [10000], alpha [0.01], epsilon [1], samples [1],
//              min [0], max [100].
// config.seed seeds the sampling. extra also holds: elo-bt: variant ("mm" or
// "permutations"), pairs (distinct pairs seen), and for mm iterations, converged,
// last_change. InvalidArgument naming the parameter for a bad --param or option.
absl::StatusOr<v1::RatingReport> RateBatch(const RateConfig& config,
                                           absl::Span<const ratings::io::ResultRecord> records,
                                           int64_t skipped_votes);

// RateBatch on votes already read over `index`'s agents (a PrefLib file or a score table
// read straight into votes, ratings/io/preflib_votes.h, ratings/io/scores_votes.h): the same
// report as on the records they come from.
absl::StatusOr<v1::RatingReport> RateBatchVotes(const RateConfig& config,
                                                const ratings::AgentIndex& index,
                                                const ratings::VoteSet& votes,
                                                int64_t skipped_votes);

}  // namespace ratingd
