// The king-of-the-hill evaluation game of [RE] §3.1 (docs/GAMES.md §5): a prompt player picks
// a prompt, a king and a rebel each pick a model; the king earns the judge's preference for
// its model's answer over the rebel's, the rebel the opposite, the prompt player how much
// the prompt separates the two.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/games/normal_form_game.h"

namespace ratings::games {

// u_k(p, a, b): the preference for model a's answer over model b's on prompt p, in [-1, 1];
// antisymmetric in (a, b) and 0 for a = b.
struct PreferenceTensor {
  size_t prompts = 0;
  size_t models = 0;
  std::vector<double> values = {};  // [p][a][b], row-major

  double at(size_t p, size_t a, size_t b) const { return values[(p * models + a) * models + b]; }
};

// One judged comparison: `value` in [-1, 1] is the preference for model_a over model_b.
struct Judgement {
  std::string prompt;
  std::string model_a;
  std::string model_b;
  double value = 0;
};

// Prompts and models by first appearance, and u_k: for every prompt and pair, the mean of
// the judgements of that prompt and pair, both orders pooled (a judgement of (b, a) counts
// as -value for (a, b)); 0 for a pair never judged and for a = b.
struct Preferences {
  std::vector<std::string> prompts = {};
  std::vector<std::string> models = {};
  PreferenceTensor tensor = {};
};
// InvalidArgument (naming the judgement's index) for a value outside [-1, 1] or equal models.
absl::StatusOr<Preferences> AggregatePreferences(absl::Span<const Judgement> judgements);

// Players 0 = prompt, 1 = king, 2 = rebel ([RE] §3.1): u_k as given; u_r = -u_k except
// u_r(p, a, a) = -1 (the rebel gains nothing by copying the king); u_p = |u_k|.
inline constexpr size_t kPromptPlayer = 0;
inline constexpr size_t kKingPlayer = 1;
inline constexpr size_t kRebelPlayer = 2;
NormalFormGame KingOfTheHill(const PreferenceTensor& preferences);

}  // namespace ratings::games
