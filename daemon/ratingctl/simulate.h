// `ratingctl simulate` (docs/CONTRACTS.md §2, docs/ACTIVE.md §4): [AE]'s experiment runner.
// Runs active evaluation algorithms (Algorithm 1) on a score-model generator over many
// seeds and reports AGRE with 95% intervals, optionally the windowed GRE curves. Seeds
// run on `threads` threads; the output is byte-identical whatever the thread count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/active/simulation.h"
#include "ratings/progress.h"

namespace ratingd {

struct SimulateConfig {
  // mallows, plackett-luce, clones, atari-agent57 or table:FILE.
  std::string generator = {};
  std::vector<std::string> algorithms = {};  // ratings::active::kAlgorithmNames
  // "key=value" for the generator, "ALG:key=value" for one algorithm (docs/ACTIVE.md §3).
  std::vector<std::string> params = {};
  ratings::active::SimulationOptions sim = {};
  int threads = 0;  // 0: every core
  bool curves = false;
  // Called with (runs done, runs in all) as seeds finish; under a lock.
  ratings::ProgressFn progress = {};
};

struct SimulateOutput {
  // {"generator", <each generator parameter>, "rounds", "seeds", "k", "window", "seed",
  //  "truth", "results": [{"algorithm", "params", "k", "agre", "agre_ci95", "final_gre",
  //  "final_gre_zero_fraction"}]}
  google::protobuf::Struct document;
  // With config.curves: "algorithm,k,round,gre_mean,gre_ci95" and one row per round.
  std::string curves_csv;
};

// InvalidArgument naming the flag or parameter that is wrong; an algorithm's solver error
// naming the algorithm and the run.
absl::StatusOr<SimulateOutput> RunSimulate(const SimulateConfig& config);

// The output as a table for people: one row per algorithm and k.
std::string SimulateTable(const google::protobuf::Struct& document);

}  // namespace ratingd
