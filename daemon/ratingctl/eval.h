// `ratingctl eval` (docs/MODELS.md §7): the papers' metrics for a ranking of a results
// file — against the results themselves (Condorcet winner, mean Kendall-tau distance to
// the results), against a ground truth (KTD, normalised and subset KTD of [SCO] Def. 1-2,
// top-k identification error and GRE of [AE] §3.1, AGRE), and held-out
// KTD_test over repeated train/test splits ([SCO] §4.4) for a list of methods.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/io/read_results.h"
#include "ratings/progress.h"

namespace ratingd {

struct EvalConfig {
  std::string input = {};                          // results file, as for `rate`
  std::optional<ratings::io::Format> format = {};  // inferred from the extension if unset
  std::string pool = {};                           // JSONL: this pool
  // The ranking to evaluate: a file (`ratingctl rate` JSON, a `generate` truth JSON, or one
  // agent per line, best first; '#' lines are comments) or, if empty, `method` run on input.
  std::string ranking = {};
  std::string method = {};
  std::string truth = {};  // ground truth, same formats as `ranking`; optional
  // "key=value" applies to `method`; "M:key=value" to method M wherever it runs.
  std::vector<std::string> params = {};
  std::vector<std::string> methods = {};  // held-out KTD_test for each
  int64_t splits = 10;                    // number of random train/test splits
  double test_fraction = 0.1;             // test results asked per split (SCO §4.4: 3000 / 31049)
  int64_t k = 3;                          // top-k of IDE and GRE (clipped to the agents ranked)
  int64_t agre_steps = 0;  // AGRE over this many growing prefixes of input (needs method)
  uint64_t seed = 0;       // of the splits, and the methods' seed
  // Makes the progress callback of one labelled run; empty = quiet.
  std::function<ratings::ProgressFn(const std::string& label)> progress = {};
};

// One JSON-ready document:
//   input, agents, results, condorcet_winner (name or null), weak_condorcet_winners;
//   ranking (if any): source, agents, top, top_is_condorcet_winner, ktd_to_results_mean
//     (mean over results of K_d(result, ranking), the per-vote term of SCO Def. 3);
//   truth (if given): source, agents, agents_compared, ktd, ktd_normalised (SCO Def. 1-2,
//     subset form: the ranking's agents within the truth), k, identification_error, gre
//     (the truth restricted to the ranked agents), agre and agre_steps (if asked);
//   held_out (if methods): splits, test_fraction, test_results (per split), and per method
//     ktd_test (per split), ktd_test_mean, ktd_test_std.
// InvalidArgument naming the file and problem for bad input, unknown agents, bad options.
absl::StatusOr<google::protobuf::Struct> RunEval(const EvalConfig& config);

// The ranking in `path` (formats above), best first. Errors name the path and the line or
// field.
absl::StatusOr<std::vector<std::string>> ReadRankingFile(const std::string& path);

}  // namespace ratingd
