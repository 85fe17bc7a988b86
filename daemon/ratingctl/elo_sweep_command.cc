// `ratingctl elo-sweep` (docs/CONTRACTS.md §2.3): flags into an EloSweepConfig, then
// RunEloSweep. Elo's parameters other than K come from the method table's elo entry, as
// `rate --method elo` takes them.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "daemon/methods/method_registry.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/elo_sweep.h"
#include "daemon/ratingctl/progress_line.h"

ABSL_FLAG(std::string, permutations, "",
          "elo-sweep: permutation counts, comma-separated (default 1,100; 1 = the file's order)");
ABSL_FLAG(std::optional<double>, initial, std::nullopt,
          "elo-sweep: every agent's initial Elo rating (default elo's, 1500; the same as --param "
          "initial=R)");

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

// Elo's `initial` from the method table's elo entry with `params` applied (its defaults
// and checks; --initial, when given, as the first of them). K is what the sweep varies:
// --param k is refused.
absl::StatusOr<double> EloInitial(std::vector<std::string> params) {
  for (const std::string& p : params) {
    if (absl::StartsWith(p, "k=")) {
      return absl::InvalidArgumentError("elo-sweep: --param k: K is swept; give --k");
    }
  }
  if (const std::optional<double> initial = absl::GetFlag(FLAGS_initial)) {
    params.insert(params.begin(), absl::StrFormat("initial=%.17g", *initial));
  }
  RateConfig elo;
  elo.method = "elo";
  elo.params = std::move(params);
  absl::StatusOr<std::unique_ptr<MethodRun>> run = PrepareMethod(elo);
  if (!run.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("elo-sweep: ", run.status().message()));
  }
  const google::protobuf::Struct values = (*run)->params().Values();
  return values.fields().at("initial").number_value();
}

}  // namespace

int EloSweepCommand(const std::vector<std::string>& params) {
  EloSweepConfig config;
  absl::StatusOr<double> initial = EloInitial(params);
  if (!initial.ok()) return Fail(std::string(initial.status().message()));
  config.initial = *initial;
  config.input.input = absl::GetFlag(FLAGS_input);
  config.input.pool = absl::GetFlag(FLAGS_pool);
  config.seed = absl::GetFlag(FLAGS_seed);
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
