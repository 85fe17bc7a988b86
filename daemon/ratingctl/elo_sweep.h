// `ratingctl elo-sweep` (docs/CONTRACTS.md §2.3; [EU] §5–7): online Elo on one file under
// several K-factors and permutation counts, with the checks [EU] recommends: the spread over
// orders, rankings that contradict head-to-head results (transitivity, Eq. 7), pairs never
// compared (§7, guideline 4), and pairs whose order depends on the configuration.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "daemon/methods/rate_config.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

// Agents above this make the pair lists too long to print (they grow as its square).
inline constexpr size_t kEloSweepMaxAgents = 2000;

struct EloSweepConfig {
  RateConfig input = {};  // input, format, pool and progress are read; method is not
  std::vector<double> k = {1, 8, 16, 32, 64};    // [EU] §5.2
  std::vector<int64_t> permutations = {1, 100};  // 1 = the file's order
  double initial = 1500;                         // ratingctl's Elo default; [EU] uses 1400
  uint64_t seed = 0;                             // of the shuffles, the same for every K
};

// {"configurations": [{"k", "permutations", "ranking": [{"agent", "mean", "sem"}],
//   "contradictions": [[a, b], ...]}], "never_compared": [[a, b], ...],
//  "stability": [{"pair": [a, b], "stable": bool}], "initial", "seed"}.
// Configurations K by K in the given order, each permutation count in the given order.
// ranking: mean rating descending, then agent id; sem 0 for one order. contradictions:
// a won more of its games against b than it lost, yet ranks below b. never_compared:
// pairs in no common result. stability: every pair in some common result, and whether
// its order is the same in every configuration. Pairs [a, b] have a < b by name, except
// contradictions' [winner, loser]; lists are sorted. Errors: reading errors as `rate`'s,
// an empty or invalid K or permutation list, more than kEloSweepMaxAgents agents.
absl::StatusOr<google::protobuf::Struct> RunEloSweep(const EloSweepConfig& config);

}  // namespace ratingd
