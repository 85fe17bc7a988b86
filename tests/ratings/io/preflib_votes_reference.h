// The definition ParsePreflibVotes (ratings/io/preflib_votes.h) must meet: ToVoteSet of
// ParsePreflib's records with a new index (votes_reference.h). Shared by
// preflib_votes_test.cc and tests/fuzz/preflib_fuzz.cc.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ratings/io/preflib_votes.h"
#include "ratings/io/read_results.h"
#include "tests/ratings/io/votes_reference.h"

namespace ratings::io::testing {

// Empty when `got` is what the reference gives for `content`, else what differs.
inline std::string VotesDifference(const absl::StatusOr<VoteInput>& got, std::string_view content,
                                   std::string_view filename, const ResultLimits& limits) {
  return RecordsVotesDifference(got, ParsePreflib(content, filename, limits), filename);
}

}  // namespace ratings::io::testing
