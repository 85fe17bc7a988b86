// `ratingctl eval` (docs/CONTRACTS.md §2.3): flags into an EvalConfig, then RunEval.
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
#include "daemon/ratingctl/eval.h"
#include "daemon/ratingctl/predict.h"
#include "daemon/ratingctl/progress_line.h"

ABSL_FLAG(std::string, ranking, "",
          "eval: the ranking to evaluate (rate JSON, truth JSON or one agent per line)");
ABSL_FLAG(std::string, truth, "", "eval: the ground-truth ranking (same formats)");
ABSL_FLAG(std::string, methods, "", "eval: comma-separated methods for held-out KTD_test");
ABSL_FLAG(int64_t, splits, 10, "eval: number of random train/test splits");
ABSL_FLAG(double, test_fraction, 0.1, "eval: share of results asked for each test set");
ABSL_FLAG(int64_t, agre_steps, 0, "eval: AGRE over this many growing prefixes (needs --method)");
ABSL_FLAG(bool, predict, false,
          "eval: score each online model of --methods (elo, glicko2, sco) on predicting each "
          "result before applying it");
ABSL_FLAG(int64_t, burn_in, 0, "eval --predict: the first results are applied but not scored");

namespace ratingd {

namespace {

// --methods as a list.
std::vector<std::string> MethodsFlag() {
  std::vector<std::string> methods;
  for (absl::string_view m : absl::StrSplit(absl::GetFlag(FLAGS_methods), ',', absl::SkipEmpty())) {
    methods.emplace_back(m);
  }
  return methods;
}

int PredictCommand(std::vector<std::string> params) {
  PredictConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.params = std::move(params);
  config.methods = MethodsFlag();
  config.burn_in = absl::GetFlag(FLAGS_burn_in);
  if (config.input.empty()) return Fail("eval: --input FILE is required");
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  auto doc = RunPredict(config);
  if (!doc.ok()) return Fail(std::string(doc.status().message()));
  return PrintJson(*doc);
}

}  // namespace

int EvalCommand(std::vector<std::string> params) {
  if (absl::GetFlag(FLAGS_predict)) return PredictCommand(std::move(params));
  EvalConfig config;
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.ranking = absl::GetFlag(FLAGS_ranking);
  config.truth = absl::GetFlag(FLAGS_truth);
  config.method = absl::GetFlag(FLAGS_method);
  config.params = std::move(params);
  config.methods = MethodsFlag();
  config.splits = absl::GetFlag(FLAGS_splits);
  config.test_fraction = absl::GetFlag(FLAGS_test_fraction);
  if (const std::string k = absl::GetFlag(FLAGS_k); !k.empty() && !absl::SimpleAtoi(k, &config.k)) {
    return Fail(absl::StrCat("eval: --k '", k, "' is not an integer"));
  }
  config.agre_steps = absl::GetFlag(FLAGS_agre_steps);
  config.seed = absl::GetFlag(FLAGS_seed);
  if (config.input.empty()) return Fail("eval: --input FILE is required");
  if (!config.ranking.empty() && !config.method.empty()) {
    return Fail("eval: give --ranking or --method, not both");
  }
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  if (isatty(STDERR_FILENO)) {
    config.progress = [](const std::string& label) { return TerminalProgress(label); };
  }
  auto doc = RunEval(config);
  if (!doc.ok()) return Fail(std::string(doc.status().message()));
  return PrintJson(*doc);
}

}  // namespace ratingd
