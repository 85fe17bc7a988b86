// Result records (as the readers return them) to the vote set of a batch run
// (ratings/batch/vote_set.h): what `ratingctl rate` (batch methods and voting rules) and
// `ratingctl eval` read.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/read_results.h"

namespace ratings::io {

// The records' results as votes over `index`'s ids, in record order; agents are interned
// in record order, then standing order. num_agents() is index.size() afterwards (agents
// `index` held before count). Each result passes ValidateResult (default ResultLimits)
// first: InvalidArgument "INPUT:LINE: problem" (`input` names the file) for the first that
// does not.
absl::StatusOr<VoteSet> ToVoteSet(absl::Span<const ResultRecord> records, std::string_view input,
                                  AgentIndex& index);

}  // namespace ratings::io
