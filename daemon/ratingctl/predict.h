// `ratingctl eval --predict` (docs/MODELS.md §7.1): which online model predicts a results
// file best. The file is replayed in order through each model, and before each result is
// applied every model's win probability for each of the result's pairs is scored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/io/read_results.h"

namespace ratingd {

struct PredictConfig {
  std::string input = {};                          // results file, as for `rate`
  std::optional<ratings::io::Format> format = {};  // inferred from the extension if unset
  std::string pool = {};                           // JSONL: this pool
  std::vector<std::string> methods = {};           // elo, glicko2, sco
  std::vector<std::string> params = {};            // "M:key=value", as `rate --param`
  int64_t burn_in = 0;                             // results applied but not scored
};

// {"methods": {M: {"log_loss", "accuracy", "n", "tenths": [10 × {"log_loss", "accuracy",
// "n"}]}}}: natural-log loss and accuracy of the pairwise win probability, means over the
// scored pairs (n of them); tenth j holds the scored results ⌊jN/10⌋ .. ⌊(j+1)N/10⌋ − 1 of
// the N scored, its means null when it holds no pair. A pair's outcome is 1, ½ (tie) or 0;
// accuracy is 1 when the favourite won, ½ for a probability of exactly ½ or a tie.
// InvalidArgument for a method that is not elo, glicko2 or sco (ml: a lottery is no pairwise
// model), an unscoped or misplaced parameter, a negative burn-in, bad input.
absl::StatusOr<google::protobuf::Struct> RunPredict(const PredictConfig& config);

}  // namespace ratingd
