// `ratingctl suggest` (docs/CONTRACTS.md §2.3, docs/ACTIVE.md §6): the next matches ratingd's
// /v1/pools/{pool}/suggest would answer for a pool holding the results of a file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "daemon/suggest_report.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/io/read_results.h"

namespace ratingd {

struct SuggestConfig {
  std::string input = {};                          // path of the results file
  std::optional<ratings::io::Format> format = {};  // inferred from the extension if unset
  std::string pool = {};                           // JSONL: this pool (required if several)
  std::vector<std::string> params = {};            // ml parameters "key=value" (strategy ml)
  SuggestRequest request = {};                     // n is clamped here
};

// Replays the pool's results in file order through ratings::Pool, as `ratingctl rate` and
// ratingd do, and answers the request from that pool: sequence = the results read; for ml
// the lottery is PoolReport(kMl) of the pool (solved to the ml target). Errors: exploration
// outside [0, 1]; unknown ml parameter; unreadable or invalid input ("FILE:LINE: problem");
// several pools without config.pool; ml refused for the pool's size.
absl::StatusOr<google::protobuf::Struct> RunSuggest(const SuggestConfig& config);

}  // namespace ratingd
