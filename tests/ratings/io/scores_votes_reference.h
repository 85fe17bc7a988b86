// The definition ParseScoresVotes (ratings/io/scores_votes.h) must meet: ToVoteSet of
// ParseScores' records with a new index (votes_reference.h). Shared by
// scores_votes_test.cc and tests/fuzz/scores_fuzz.cc.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ratings/io/read_results.h"
#include "ratings/io/scores_votes.h"
#include "tests/ratings/io/votes_reference.h"

namespace ratings::io::testing {

// Empty when `got` is what the reference gives for `content`, else what differs.
inline std::string ScoresVotesDifference(const absl::StatusOr<VoteInput>& got,
                                         std::string_view content, std::string_view filename,
                                         const ResultLimits& limits) {
  return RecordsVotesDifference(got, ParseScores(content, filename, limits), filename);
}

}  // namespace ratings::io::testing
