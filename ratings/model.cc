#include "ratings/model.h"

namespace ratings {

absl::string_view ModelName(Model model) {
  switch (model) {
    case Model::kElo:
      return "elo";
    case Model::kSco:
      return "sco";
    case Model::kMl:
      return "ml";
    case Model::kGlicko2:
      return "glicko2";
  }
  return "?";
}

std::optional<Model> ParseModel(absl::string_view name) {
  for (Model m : kModels) {
    if (ModelName(m) == name) return m;
  }
  return std::nullopt;
}

}  // namespace ratings
