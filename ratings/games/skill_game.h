// Synthetic prompt-and-model judgements from the skill model of [RE] §1.1, with optional
// adversarial prompt copies as in [RE] §4.2 (docs/GAMES.md §6): what `ratingctl generate
// --model king-of-the-hill` writes and what the clone-invariance tests rate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "ratings/games/king_of_the_hill.h"

namespace ratings::games {

struct SkillGameOptions {
  size_t prompts = 40;      // P >= 1, named q1..qP
  size_t models = 6;        // M >= 2, named m1..mM
  size_t skills = 3;        // S >= 1
  size_t copies = 0;        // adversarial copies added after the P prompts
  double lambda = 10;       // copies are drawn from softmax(-λ ū_k(target)) over the prompts
  std::string target = {};  // the model they are chosen against; empty: the best on average
  double noise = 0;         // each copy's preferences + Uniform(-noise, noise), clipped to [-1, 1]
  // 0: one judgement per prompt and pair, its exact preference. N >= 1: N judged battles
  // per prompt and pair, as arena data are, presented in alternate orders ((a, b), (b, a),
  // ...): a tie (0) with probability `ties`, else a win (+1) for the first-presented model
  // with probability (1 + u)/2 of its preference u, else a loss (-1). A copy repeats its
  // original's battles (noise must then be 0).
  size_t sampled = 0;
  double ties = 0.3;
  uint64_t seed = 1;
};

struct SkillGame {
  std::vector<Eigen::VectorXd> prompt_skills;  // p in the simplex, Dirichlet(1)
  std::vector<Eigen::VectorXd> model_skills;   // m in the simplex, Dirichlet(1)
  std::string target = {};                     // the model the copies were chosen against
  // Per prompt (originals, then copies), every pair a < b once: value p·(m_a - m_b), in
  // [-1, 1]; or `sampled` battles per pair. A copy of prompt qK is named qK-copyJ (J = 1..
  // in order of drawing).
  std::vector<Judgement> judgements = {};
};

// InvalidArgument naming the parameter for sizes out of range, an unknown target, a
// negative λ, noise outside [0, 1], ties outside [0, 1] or noise with sampled battles.
// Deterministic in the seed.
absl::StatusOr<SkillGame> GenerateSkillGame(const SkillGameOptions& options);

}  // namespace ratings::games
