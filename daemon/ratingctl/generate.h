// `ratingctl generate` (docs/MODELS.md §8): synthetic results with a known ground
// truth, as JSONL of GameResult (the proto3 JSON form every reader accepts) plus the truth
// as JSON beside it. Seeded and deterministic: the same config gives byte-identical files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ratings/io/read_results.h"

namespace ratingd {

struct GenerateConfig {
  std::string model = {};   // see GeneratorNames()
  std::string output = {};  // the JSONL path; the truth goes to TruthPath(output)
  // "key=value" (defaults in brackets; ratings/generators/generated_profile.h):
  //   mallows:       agents [8], tasks [50], dispersion [0.5]
  //   plackett-luce: agents [8], tasks [50], tau [1], max_rating [10]
  //   clones:        agents [8], tasks [50], dispersion [0.5], clones [8]
  //   cycle:         agents [3], tasks [30]
  //   tournament:    agents [20], players [4], contests [50], matching [uniform|skill],
  //                  skill_mean [100], skill_std [30], noise_std [5], candidates [3]
  //   king-of-the-hill: prompts [40], models [6], skills [3], copies [0], lambda [10],
  //                  target [best on average], noise [0] (generate_games.h: battles, not
  //                  GameResults)
  //   bernoulli:     pairs [required: A>B:0.75,...], games [1000] per pair, tie [0]
  //                  (generate_bernoulli.h)
  std::vector<std::string> params = {};
  uint64_t seed = 0;
  std::string pool = "generated";  // the pool of every GameResult
};

// "mallows", "plackett-luce", "clones", "cycle", "tournament", "king-of-the-hill",
// "bernoulli", "drift".
std::vector<std::string> GeneratorNames();

// "dir/x.jsonl" -> "dir/x.truth.json" (the extension, if any, replaced).
std::string TruthPath(const std::string& output);

struct GeneratedFiles {
  // One GameResult per line: game_id "<model>-<i>", task "task-<i>" for task rankings
  // (empty for tournaments), standings ranked 1..k best first.
  std::string jsonl;
  // {"generator", "seed", "params" (every effective parameter), "results", "agents",
  //  "ranking" (names, best first), "ratings" (name -> true rating; absent without one)}.
  std::string truth_json;
};

// One GameResult JSON line of `record` (camelCase names, as producers write), "\n" ended.
absl::StatusOr<std::string> ResultJsonLine(const ratings::io::ResultRecord& record);

// The two files' contents. InvalidArgument naming the parameter for bad params.
absl::StatusOr<GeneratedFiles> Generate(const GenerateConfig& config);

// Generate, then write config.output and TruthPath(config.output).
absl::Status RunGenerate(const GenerateConfig& config);

}  // namespace ratingd
