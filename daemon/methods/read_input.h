// The input of a rating method (docs/CONTRACTS.md §2): a file's results of one pool, or its
// votes, read straight from a PrefLib file or a score table where the method takes votes.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "daemon/methods/rate_config.h"
#include "ratings/io/read_results.h"
#include "ratings/io/vote_input.h"

namespace ratingd {

// The records RunRate rates: config.input read in config.format (or by extension), of
// the one pool it holds or config.pool. Errors: unreadable or invalid input
// ("FILE:LINE: problem"); a file holding several pools without config.pool; config.pool
// on a file that names no pools.
struct PoolRecords {
  std::vector<ratings::io::ResultRecord> records;  // file order
  int64_t skipped_votes = 0;                       // see ReadOutput
};
absl::StatusOr<PoolRecords> ReadPoolRecords(const RateConfig& config);

// PrefLib and score-table input (config.format, or the extension) read straight into the
// votes of a batch run (ratings/io/preflib_votes.h, ratings/io/scores_votes.h): what
// ReadPoolRecords and then ToVoteSet give, without a record per voter or row; nullopt for
// the other formats. Errors as ReadPoolRecords's.
absl::StatusOr<std::optional<ratings::io::VoteInput>> ReadVotesDirectly(const RateConfig& config);

// The votes of config.input: ReadVotesDirectly, or for the other formats ReadPoolRecords and
// then ToVoteSet ("FILE:LINE: problem" for a result it refuses); `skipped_votes` as the
// records give it.
absl::StatusOr<ratings::io::VoteInput> ReadPoolVotes(const RateConfig& config);

}  // namespace ratingd
