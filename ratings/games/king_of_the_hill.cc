#include "ratings/games/king_of_the_hill.h"

#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace ratings::games {
namespace {

size_t Intern(const std::string& name, absl::flat_hash_map<std::string, size_t>& index,
              std::vector<std::string>& names) {
  const auto [it, inserted] = index.try_emplace(name, names.size());
  if (inserted) names.push_back(name);
  return it->second;
}

}  // namespace

absl::StatusOr<Preferences> AggregatePreferences(absl::Span<const Judgement> judgements) {
  Preferences out;
  absl::flat_hash_map<std::string, size_t> prompts;
  absl::flat_hash_map<std::string, size_t> models;
  struct Indexed {
    size_t p, a, b;
  };
  std::vector<Indexed> indexed;
  indexed.reserve(judgements.size());
  for (size_t k = 0; k < judgements.size(); ++k) {
    const Judgement& j = judgements[k];
    if (!(std::abs(j.value) <= 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat("judgement ", k, ": preference ", j.value, " outside [-1, 1]"));
    }
    if (j.model_a == j.model_b) {
      return absl::InvalidArgumentError(
          absl::StrCat("judgement ", k, ": model_a and model_b are both '", j.model_a, "'"));
    }
    indexed.push_back({Intern(j.prompt, prompts, out.prompts),
                       Intern(j.model_a, models, out.models),
                       Intern(j.model_b, models, out.models)});
  }
  const size_t n = out.models.size();
  PreferenceTensor& t = out.tensor;
  t.prompts = out.prompts.size();
  t.models = n;
  t.values.assign(t.prompts * n * n, 0.0);
  std::vector<double> counts(t.values.size(), 0.0);
  for (size_t k = 0; k < indexed.size(); ++k) {
    const auto [p, a, b] = indexed[k];
    t.values[(p * n + a) * n + b] += judgements[k].value;
    t.values[(p * n + b) * n + a] -= judgements[k].value;
    counts[(p * n + a) * n + b] += 1;
    counts[(p * n + b) * n + a] += 1;
  }
  for (size_t c = 0; c < counts.size(); ++c) {
    if (counts[c] > 0) t.values[c] /= counts[c];
  }
  return out;
}

NormalFormGame KingOfTheHill(const PreferenceTensor& preferences) {
  const size_t p_count = preferences.prompts;
  const size_t m = preferences.models;
  NormalFormGame game;
  game.actions = {p_count, m, m};
  game.payoffs.assign(3, std::vector<double>(p_count * m * m));
  for (size_t p = 0; p < p_count; ++p) {
    for (size_t a = 0; a < m; ++a) {
      for (size_t b = 0; b < m; ++b) {
        const size_t at = (p * m + a) * m + b;
        const double king = a == b ? 0.0 : preferences.values[at];
        game.payoffs[kPromptPlayer][at] = std::abs(king);
        game.payoffs[kKingPlayer][at] = king;
        game.payoffs[kRebelPlayer][at] = a == b ? -1.0 : -king;
      }
    }
  }
  return game;
}

}  // namespace ratings::games
