// `ratingctl simulate` (docs/CONTRACTS.md §2.3): flags into a SimulateConfig, then
// RunSimulate; the curves file and the document or table.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/progress_line.h"
#include "daemon/ratingctl/simulate.h"

ABSL_FLAG(std::string, generator, "",
          "simulate: mallows, plackett-luce, clones, atari-agent57 or table:FILE");
ABSL_FLAG(std::string, algorithms, "", "simulate: comma-separated algorithms (see --help)");
ABSL_FLAG(int64_t, rounds, 10000, "simulate: rounds T of Algorithm 1");
ABSL_FLAG(int64_t, seeds, 100, "simulate: independent runs");
ABSL_FLAG(int64_t, window, 250, "simulate: sliding window of the --curves");
ABSL_FLAG(int32_t, threads, 0, "simulate: threads running seeds (0: every core)");
ABSL_FLAG(std::string, curves, "", "simulate: write the windowed GRE curves to this CSV file");

namespace ratingd {

int SimulateCommand(std::vector<std::string> params) {
  SimulateConfig config;
  config.generator = absl::GetFlag(FLAGS_generator);
  for (absl::string_view a :
       absl::StrSplit(absl::GetFlag(FLAGS_algorithms), ',', absl::SkipEmpty())) {
    config.algorithms.emplace_back(a);
  }
  config.params = std::move(params);
  config.sim.rounds = absl::GetFlag(FLAGS_rounds);
  config.sim.seeds = absl::GetFlag(FLAGS_seeds);
  config.sim.window = absl::GetFlag(FLAGS_window);
  config.sim.seed = absl::GetFlag(FLAGS_seed);
  config.threads = absl::GetFlag(FLAGS_threads);
  if (config.generator.empty()) return Fail("simulate: --generator is required (see --help)");
  if (const std::string k = absl::GetFlag(FLAGS_k); !k.empty()) {
    config.sim.k.clear();
    for (absl::string_view item : absl::StrSplit(k, ',')) {
      size_t value = 0;
      if (!absl::SimpleAtoi(item, &value) || value < 1) {
        return Fail(absl::StrCat("simulate: --k '", k, "': '", item, "' is not an integer >= 1"));
      }
      config.sim.k.push_back(value);
    }
  }
  const std::string curves = absl::GetFlag(FLAGS_curves);
  config.curves = !curves.empty();
  const absl::StatusOr<bool> table = TableOutput();
  if (!table.ok()) return Fail(std::string(table.status().message()));
  if (config.threads < 0) return Fail("simulate: --threads must be >= 0");
  if (isatty(STDERR_FILENO)) config.progress = TerminalProgress("simulate");
  auto result = RunSimulate(config);
  if (!result.ok()) return Fail(std::string(result.status().message()));
  if (config.curves) {
    std::FILE* file = std::fopen(curves.c_str(), "w");
    if (file == nullptr) return Fail(absl::StrCat("cannot write ", curves));
    const size_t written =
        std::fwrite(result->curves_csv.data(), 1, result->curves_csv.size(), file);
    if (std::fclose(file) != 0 || written != result->curves_csv.size()) {
      return Fail(absl::StrCat("cannot write ", curves));
    }
  }
  if (*table) {
    std::cout << SimulateTable(result->document);
    return 0;
  }
  return PrintJson(result->document);
}

}  // namespace ratingd
