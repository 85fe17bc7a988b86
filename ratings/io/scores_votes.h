// Score tables read straight into the vote set of a batch run (ratings/batch/vote_set.h),
// for `ratingctl rate` with a batch method or a voting rule, `eval` and `elo-sweep`
// (docs/CONTRACTS.md §2): the votes that ToVoteSet (records_to_votes.h) makes of
// ParseScores' records (read_results.h), without building a record, with a string per
// standing, for every row.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "ratings/io/vote_input.h"
#include "ratings/result.h"

namespace ratings::io {

// Exactly ToVoteSet(ParseScores(content, filename, limits)->records, filename, index) with a
// new `index`: the same votes (as given and best first), ids, weights and num_agents, and
// on error the same status, ParseScores' if it fails, else ToVoteSet's (which validates
// under the default ResultLimits, so only more permissive `limits` can reach it). Agent id
// a is column a (the first row interns the columns in order); each row is one vote of
// weight 1 ranking every column. The data lines are read in two halves on two threads from
// kParallelBytes on (parallel_lines.h), each half's rows written in place on its thread.
absl::StatusOr<VoteInput> ParseScoresVotes(std::string_view content, std::string_view filename,
                                           const ResultLimits& limits);

}  // namespace ratings::io
