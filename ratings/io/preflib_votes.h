// PrefLib files read straight into the vote set of a batch run (ratings/batch/vote_set.h),
// for `ratingctl rate` with a batch method or a voting rule, `eval` and `elo-sweep`
// (docs/CONTRACTS.md §2): the votes that ToVoteSet (records_to_votes.h) makes of
// ParsePreflib's records (read_results.h), without building a record, with its own strings
// and standings, for every voter of a `count: order` line.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "ratings/io/vote_input.h"
#include "ratings/result.h"

namespace ratings::io {

// Exactly ToVoteSet(ParsePreflib(content, filename, limits)->records, filename, index) with a
// new `index` (and ParsePreflib's skipped_votes): the same votes, ids,
// weights and num_agents, and on error the same status, ParsePreflib's if it fails, else
// ToVoteSet's (which validates under the default ResultLimits, so only more permissive
// `limits` can reach it). The data lines are read in two halves on two threads from
// kParallelBytes on (parallel_lines.h) with the alternatives' numbers as ids; the agents are
// interned by first appearance once both halves are read, and each half's votes written in
// place on its thread. A file of more than 2^31 alternatives (some 50 GB of header) is
// refused with ResourceExhausted.
absl::StatusOr<VoteInput> ParsePreflibVotes(std::string_view content, std::string_view filename,
                                            const ResultLimits& limits);

}  // namespace ratings::io
