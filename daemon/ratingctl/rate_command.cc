// `ratingctl rate` and `ratingctl methods` (docs/CONTRACTS.md §2.2, §2.5): flags into a
// RateConfig, the method table's run, and the report as JSON or a table.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/method_registry.h"
#include "daemon/methods/report_text.h"
#include "daemon/methods/run_rate.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/progress_line.h"

ABSL_FLAG(uint32_t, bootstrap_replicas, 0,
          "rate, online models: add ratingd's games, provisional and (elo, sco) intervals from "
          "this many bootstrap replicas seeded by the pool's name (0 = none, else 2..256)");
ABSL_FLAG(uint64_t, provisional_games, 20,
          "rate with --bootstrap-replicas, and glicko2: agents in fewer results are provisional");
ABSL_FLAG(double, provisional_rd, 110,
          "rate --method glicko2: agents whose rating deviation is above this are provisional");
ABSL_FLAG(std::string, history, "",
          "rate, online elo, sco and glicko2: write every agent's rating history to this CSV "
          "file (agent,sequence,time,rating,ci_low,ci_high)");
ABSL_FLAG(absl::Duration, inactive_after, absl::InfiniteDuration(),
          "rate, online models: leave out agents whose last timed result is more than this "
          "before the file's latest event time (e.g. 720h; default: none left out)");
ABSL_FLAG(bool, include_inactive, false,
          "rate --inactive-after: list the inactive agents after the ranked ones, marked "
          "\"inactive\": true");
ABSL_FLAG(uint64_t, history_points, 128,
          "rate --history: points kept per agent, older ones thinned (at least 4)");

namespace ratingd {

int RateCommand(std::vector<std::string> params) {
  RateConfig config;
  config.method = absl::GetFlag(FLAGS_method);
  config.input = absl::GetFlag(FLAGS_input);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.params = std::move(params);
  config.bootstrap_replicas = absl::GetFlag(FLAGS_bootstrap_replicas);
  config.provisional_games = absl::GetFlag(FLAGS_provisional_games);
  config.provisional_rd = absl::GetFlag(FLAGS_provisional_rd);
  config.history = absl::GetFlag(FLAGS_history);
  config.history_points = absl::GetFlag(FLAGS_history_points);
  config.inactive_after = absl::GetFlag(FLAGS_inactive_after);
  config.include_inactive = absl::GetFlag(FLAGS_include_inactive);
  if (config.method.empty()) return Fail("rate: --method is required (see --help)");
  if (isatty(STDERR_FILENO)) config.progress = TerminalProgress(config.method);
  if (config.input.empty()) return Fail("rate: --input FILE is required");
  const absl::StatusOr<bool> table = TableOutput();
  if (!table.ok()) return Fail(std::string(table.status().message()));
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  auto report = RunRate(config);
  if (!report.ok()) return Fail(std::string(report.status().message()));
  const auto& extra = report->extra().fields();
  if (auto it = extra.find("converged");
      extra.contains("last_change") && it != extra.end() && !it->second.bool_value()) {
    // elo-bt's MM fit, whose progress is a rating change, not an exploitability.
    std::cerr << "ratingctl: warning: " << config.method
              << " stopped at max_iterations; the last iteration still moved a rating by "
              << extra.at("last_change").number_value() << " Elo points\n";
  } else if (it != extra.end() && !it->second.bool_value()) {
    // ml (max_iterations) and gt-ne / gt-cce (max_steps) report their exploitability.
    std::cerr << "ratingctl: warning: " << config.method
              << " stopped at its iteration cap with exploitability "
              << extra.at("exploitability").number_value() << " above the target\n";
  }
  if (*table) {
    std::cout << ReportToTable(*report);
    return 0;
  }
  return PrintJson(*report);  // ReportToJson's document
}

int MethodsCommand() { return PrintJson(MethodsDocument()); }

}  // namespace ratingd
