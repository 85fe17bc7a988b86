// The batch voting methods of `ratingctl rate` (docs/MODELS.md §6): approval,
// plurality, borda, stv, copeland, kemeny, ranked-pairs, schulze, ml-exact, iml, and
// nash-avg (rate_nash.h), on the algorithms of ratings/voting. Wiring only: parameters,
// agent interning, the report.
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

// The method names, in the order docs/CONTRACTS.md §2 lists them.
std::vector<std::string> VotingMethods();
bool IsVotingMethod(absl::string_view method);

// Rates the records (all of one pool) with a voting method. One preference profile and
// one BatchTally are built from them and shared by the method's steps. `params` are
// "key=value":
//   approval:          k (3, integer >= 1)
//   stv:               winners (0 = max(1, floor(m/2)))
//   kemeny:            max_agents (20, <= 25; per majority cycle)
//   ml-exact, iml:     max_agents (4096), tolerance (1e-9)
//   nash-avg:          tolerance (1e-9)
//   plurality, borda, copeland, ranked-pairs, schulze: none
// InvalidArgument naming the parameter for an unknown key or a bad value; the
// method's own refusal (e.g. kemeny above max_agents; the pairwise methods other than
// copeland above 4096 agents) otherwise.
//
// The report: ranking with the method's appendix score as `rating`; rank order is
//   approval, plurality, borda, copeland, iml, nash-avg: rating descending, then agent id;
//   stv, kemeny, ranked-pairs, schulze: the method's own order (its social welfare
//     function, ties broken by agent id; the appendix scores follow it in all the
//     paper's examples but are not guaranteed monotone in it);
//   ml-exact: probability descending, then rating (expected margin against the lottery).
// extra: params (every parameter with its effective value), seed (unused: every method
// here is deterministic), skipped_votes; ml-exact: lottery, exploitability, unique,
// linear_programs; iml: levels (list of [{agent, probability}] from the top),
// exploitability (the largest over the levels); stv: winners (names), quota, votes;
// kemeny: value; nash-avg: agent_strategy, task_strategy, value, exploitability, tasks
// (rate_nash.h; it needs a task and scores on every record).
absl::StatusOr<v1::RatingReport> RateByVoting(const RateConfig& config,
                                              absl::Span<const ratings::io::ResultRecord> records,
                                              int64_t skipped_votes);

// RateByVoting on votes already read over `index`'s agents (a PrefLib file or a score table
// read straight into votes, ratings/io/preflib_votes.h, ratings/io/scores_votes.h): the same
// report as on the records they come from.
// Every method but nash-avg, which needs records (their tasks and scores).
absl::StatusOr<v1::RatingReport> RateVotesByVoting(const RateConfig& config,
                                                   const ratings::AgentIndex& index,
                                                   const ratings::VoteSet& votes,
                                                   int64_t skipped_votes);

// InvalidArgument naming the parameter if one of config.params is unknown or invalid for
// config.method (checked before the input is read).
absl::Status CheckVotingParams(const RateConfig& config);

}  // namespace ratingd
