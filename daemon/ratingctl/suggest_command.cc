// `ratingctl suggest` (docs/CONTRACTS.md §2.3): flags into a SuggestConfig, then RunSuggest.
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
#include "daemon/ratingctl/suggest.h"

ABSL_FLAG(std::string, strategy, "", "suggest: uniform, ucb or ml");
ABSL_FLAG(int64_t, n, 10, "suggest: pairs to suggest (at most 1000; more are clamped)");
ABSL_FLAG(double, exploration, 0.1, "suggest: uniform mass mixed into the ml lottery, in [0, 1]");

namespace ratingd {

int SuggestCommand(std::vector<std::string> params) {
  SuggestConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.params = std::move(params);
  const std::string strategy = absl::GetFlag(FLAGS_strategy);
  const auto parsed = ratings::active::ParseSuggestStrategy(strategy);
  if (!parsed.has_value()) {
    return Fail(
        absl::StrCat("suggest: --strategy must be uniform, ucb or ml (got '", strategy, "')"));
  }
  config.request.strategy = *parsed;
  const int64_t n = absl::GetFlag(FLAGS_n);
  if (n < 1) return Fail(absl::StrCat("suggest: --n must be >= 1 (got ", n, ")"));
  config.request.n = static_cast<size_t>(n);
  config.request.exploration = absl::GetFlag(FLAGS_exploration);
  config.request.seed = absl::GetFlag(FLAGS_seed);
  if (config.input.empty()) return Fail("suggest: --input FILE is required");
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  auto doc = RunSuggest(config);
  if (!doc.ok()) return Fail(absl::StrCat("suggest: ", doc.status().message()));
  return PrintJson(*doc);
}

}  // namespace ratingd
