// `ratingctl generate --model king-of-the-hill` (docs/GAMES.md §6): battles of models on
// prompts from the skill model of [RE] §1.1, with optional adversarial prompt copies
// ([RE] §4.2).
#pragma once

#include "absl/status/statusor.h"
#include "daemon/ratingctl/generate.h"

namespace ratingd {

// Params: prompts [40], models [6], skills [3], copies [0], lambda [10], target [the model
// best on average], noise [0], sampled [0], ties [0.3]. The battles file: one JSON line per
// prompt and model pair (a < b), {"question_id", "model_a", "model_b", "winner", "score"}:
// score = p·(m_a - m_b), winner from its sign (0: tie); with sampled = N, N lines per
// prompt and pair in alternate orders, {"question_id", "model_a", "model_b", "winner"}
// drawn as SkillGameOptions says. The truth: {"generator", "seed", "params", "results",
// "agents", "target", "ranking" (models by mean score against all others over the
// original prompts, best first), "ratings" (that mean)}.
absl::StatusOr<GeneratedFiles> GenerateKingOfTheHill(const GenerateConfig& config);

}  // namespace ratingd
