// `ratingctl game` (docs/CONTRACTS.md §2.3): flags into a GameConfig, then RunGame, with a
// warning when the solver did not converge.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/game.h"

ABSL_FLAG(std::string, solver, "",
          "game: ne (Nash equilibrium, annealed QRE) or cce (maximum-entropy coarse correlated "
          "equilibrium)");

namespace ratingd {

int GameCommand(std::vector<std::string> params) {
  GameConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.solver = absl::GetFlag(FLAGS_solver);
  config.params = std::move(params);
  if (config.solver.empty()) return Fail("game: --solver ne|cce is required");
  if (config.input.empty()) return Fail("game: --input GAME.json is required");
  auto doc = RunGame(config);
  if (!doc.ok()) return Fail(absl::StrCat("game: ", doc.status().message()));
  const auto& fields = doc->fields();
  if (!fields.at("converged").bool_value()) {
    const auto& used = fields.at("params").struct_value().fields();
    std::string warning =
        absl::StrCat("ratingctl: warning: game: ", config.solver, " did not converge in ",
                     static_cast<int64_t>(fields.at("steps").number_value()),
                     " steps: exploitability ", fields.at("exploitability").number_value(),
                     " (epsilon ", used.at("epsilon").number_value(), ")");
    if (config.solver == "cce") {
      absl::StrAppend(&warning, ", slackness ", fields.at("slackness").number_value(), " (target ",
                      used.at("slackness").number_value(), ")");
    }
    std::cerr << warning << "\n";
  }
  return PrintJson(*doc);
}

}  // namespace ratingd
