// `ratingctl elo-sweep` (docs/CONTRACTS.md §2.3): flags into an EloSweepConfig, then
// RunEloSweep.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/elo_sweep.h"
#include "daemon/ratingctl/progress_line.h"

ABSL_FLAG(std::string, permutations, "",
          "elo-sweep: permutation counts, comma-separated (default 1,100; 1 = the file's order)");
ABSL_FLAG(double, initial, 1500, "elo-sweep: every agent's initial Elo rating");

namespace ratingd {

namespace {

// "1,8,16" -> {1, 8, 16}; `parse` reads one item. An error names the flag and the item.
template <typename T, typename Parse>
absl::StatusOr<std::vector<T>> ParseList(const std::string& flag, const std::string& text,
                                         const char* what, Parse parse) {
  std::vector<T> items;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    T value{};
    if (!parse(item, &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("elo-sweep: --", flag, " '", text, "': '", item, "' is not ", what));
    }
    items.push_back(value);
  }
  return items;
}

}  // namespace

int EloSweepCommand(const std::vector<std::string>& params) {
  if (!params.empty()) return Fail("elo-sweep: takes no --param (see --help)");
  EloSweepConfig config;
  config.input.input = absl::GetFlag(FLAGS_input);
  config.input.pool = absl::GetFlag(FLAGS_pool);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.initial = absl::GetFlag(FLAGS_initial);
  if (config.input.input.empty()) return Fail("elo-sweep: --input FILE is required");
  if (absl::Status s = FormatFlag(config.input.format); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  if (const std::string k = absl::GetFlag(FLAGS_k); !k.empty()) {
    auto parsed = ParseList<double>("k", k, "a number", [](absl::string_view v, double* out) {
      return absl::SimpleAtod(v, out);
    });
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    config.k = *std::move(parsed);
  }
  if (const std::string p = absl::GetFlag(FLAGS_permutations); !p.empty()) {
    auto parsed = ParseList<int64_t>(
        "permutations", p, "an integer",
        [](absl::string_view v, int64_t* out) { return absl::SimpleAtoi(v, out); });
    if (!parsed.ok()) return Fail(std::string(parsed.status().message()));
    config.permutations = *std::move(parsed);
  }
  if (isatty(STDERR_FILENO)) config.input.progress = TerminalProgress("elo-sweep");
  auto doc = RunEloSweep(config);
  if (!doc.ok()) return Fail(std::string(doc.status().message()));
  return PrintJson(*doc);
}

}  // namespace ratingd
