// `ratingctl rate --method gt-ne|gt-cce` (docs/GAMES.md §5): models rated as the king of the
// king-of-the-hill game of [RE] §3.1, by a Nash equilibrium (annealed QRE) or a maximum-
// entropy CCE with affinity-entropy selection. Wiring only: judgements from the records,
// the game, the solve and the report.
#pragma once

#include <memory>

#include "daemon/methods/method_registry.h"

namespace ratingd {

// Every record must be a two-agent result with a task (the prompt): the battles format with
// question_id or task, or JSONL results with `task`. Its preference for the first standing's
// agent over the second is that standing's `score` if present (battles: the `score` column),
// else +1 / -1 / 0 from the ranks. Parameters: those of GameSolverParamTable
// (game_params.h) and tie_tolerance (1e-4).
//
// The report: ranking of the models by the king's rating (regret; ratings within
// `tie_tolerance` of the group's best share its order, then by name), each with the king's
// equilibrium `mass`; extra: prompts [{prompt, rating, mass}] and rebel [{agent, rating,
// mass}] in the same order, exploitability, converged, steps, tau (gt-ne; for gt-cce the
// final slackness instead), params, seed, skipped_votes.
std::unique_ptr<MethodRun> MakeGtNeRun();
std::unique_ptr<MethodRun> MakeGtCceRun();

}  // namespace ratingd
