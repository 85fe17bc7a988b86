// The four online models a pool keeps (docs/MODELS.md §2-4, §10), and their names as they
// appear in flags (`--models elo,sco,ml,glicko2`, `--param elo.k=16`), message keys (`pool/model`),
// deltas, leaderboards and reports.
//
//   for (Model m : kModels) std::cout << ModelName(m);          // elo sco ml glicko2
//   std::optional<Model> m = ParseModel("sco");                 // Model::kSco
#pragma once

#include <array>
#include <optional>

#include "absl/strings/string_view.h"

namespace ratings {

enum class Model { kElo, kSco, kMl, kGlicko2 };

// Every model, in the order reports and flags list them.
inline constexpr std::array<Model, 4> kModels = {Model::kElo, Model::kSco, Model::kMl,
                                                 Model::kGlicko2};

// "elo", "sco", "ml" or "glicko2".
absl::string_view ModelName(Model model);

// The model named `name`; nullopt for any other string (names are case-sensitive).
std::optional<Model> ParseModel(absl::string_view name);

}  // namespace ratings
