// The voting methods of `ratingctl rate` (docs/MODELS.md §6): approval, plurality, borda,
// stv, copeland, kemeny, ranked-pairs, schulze, ml-exact and iml on the algorithms of
// ratings/voting (input kVotes), and nash-avg (rate_nash.h; input kScores). Wiring only:
// parameters, the shared tally, the report.
//
// Parameters ("key=value"):
//   approval:          k (3, integer >= 1)
//   stv:               winners (0 = max(1, floor(m/2)))
//   kemeny:            max_agents (20, <= 25; per majority cycle)
//   ml-exact, iml:     max_agents (4096), tolerance (1e-9)
//   nash-avg:          tolerance (1e-9)
//   plurality, borda, copeland, ranked-pairs, schulze: none
// Errors: InvalidArgument naming the parameter for an unknown key or a bad value; the
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
// (it needs a task and scores on every record).
#pragma once

#include <memory>

#include "daemon/methods/method_registry.h"

namespace ratingd {

std::unique_ptr<MethodRun> MakeApprovalRun();
std::unique_ptr<MethodRun> MakePluralityRun();
std::unique_ptr<MethodRun> MakeBordaRun();
std::unique_ptr<MethodRun> MakeStvRun();
std::unique_ptr<MethodRun> MakeCopelandRun();
std::unique_ptr<MethodRun> MakeKemenyRun();
std::unique_ptr<MethodRun> MakeRankedPairsRun();
std::unique_ptr<MethodRun> MakeSchulzeRun();
std::unique_ptr<MethodRun> MakeMlExactRun();
std::unique_ptr<MethodRun> MakeImlRun();
std::unique_ptr<MethodRun> MakeNashAvgRun();

}  // namespace ratingd
