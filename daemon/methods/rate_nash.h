// `ratingctl rate --method nash-avg` (docs/MODELS.md §6): Nash averaging of agents against
// tasks ([AE] §4.2.1; Balduzzi et al. 2018) on per-task scores. Wiring only: the score
// matrix from the records, its per-task normalisation, the report. Parameters are parsed
// by voting_methods.cc with the other methods of ratings/voting.
#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/io/read_results.h"
#include "ratings/voting/nash_averaging.h"

namespace ratingd {

// Rates `records` (all of one pool; `input` names the file in messages). Every record must
// carry a task and a score per standing: a score table (each line one task, the cells its
// scores) or JSONL results with `task` and per-standing `score`. The score of agent a on
// task v is the mean of a's scores over the results of v, weighted by the results'
// weights; each task's scores are then mapped linearly to [0, 1] (its lowest 0, its
// highest 1; all equal: all 0.5), and the game is solved by SolveNashAveraging.
//
// The report: method, agents, results, ranking by `rating` (expected normalised score
// against the task player's maximum-entropy equilibrium strategy) descending, then agent
// name; extra: agent_strategy and task_strategy (name -> probability), value,
// exploitability, tasks (count). The caller adds params, seed and skipped_votes.
// No records: an empty ranking. InvalidArgument "INPUT:LINE: ..." for a result without a
// task or a standing without a score, and naming the agent and task for an agent never
// scored on a task.
absl::StatusOr<v1::RatingReport> RateNashAveraging(
    absl::string_view input, absl::Span<const ratings::io::ResultRecord> records,
    const ratings::voting::NashAveragingOptions& options);

}  // namespace ratingd
