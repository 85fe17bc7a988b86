// The suggest document shared by ratingd's /v1/pools/{pool}/suggest and `ratingctl suggest`
// (docs/CONTRACTS.md §2.3, §3.2): {pool, sequence, strategy, suggestions: [{agents: [a, b],
// probability}]}, computed by ratings/active/suggest.h from a pool (uniform, ucb) or from
// the pool's ml report (ml), so that both programs print the same bytes for the same results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "google/protobuf/struct.pb.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/active/suggest.h"
#include "ratings/pool.h"

namespace ratingd {

struct SuggestRequest {
  ratings::active::SuggestStrategy strategy = ratings::active::SuggestStrategy::kUniform;
  size_t n = 10;             // clamped to ratings::active::kMaxSuggestions
  double exploration = 0.1;  // ml only; in [0, 1]
  uint64_t seed = 0;
};

// What uniform and ucb read of a pool: its agents in id order, their games and points (as
// ratings::GameCounts keeps them), and its result count.
struct SuggestCounts {
  absl::Span<const std::string> agents;
  absl::Span<const double> games;
  absl::Span<const double> points;
  uint64_t results = 0;
};

// uniform or ucb from the counts; sequence = counts.results. Precondition: request.strategy
// is not kMl.
google::protobuf::Struct SuggestFromCounts(const std::string& pool_name,
                                           const SuggestCounts& counts,
                                           const SuggestRequest& request);
// The same from a pool's own counts.
google::protobuf::Struct SuggestFromPool(const std::string& pool_name, const ratings::Pool& pool,
                                         const SuggestRequest& request);

// ml from `report`, PoolReport(kMl, ...) of every agent of the pool after `sequence` results:
// σ is its extra.lottery over its ranking's agents, in ranking order. InvalidArgument if
// the report has no lottery for a ranked agent; exploration outside [0, 1].
absl::StatusOr<google::protobuf::Struct> SuggestFromMlReport(const std::string& pool_name,
                                                             uint64_t sequence,
                                                             const v1::RatingReport& report,
                                                             const SuggestRequest& request);

// What `ratingctl suggest` answers for a pool named `pool_name`: uniform and ucb from its
// counts, ml from PoolReport(kMl, pool) (which solves on `pool`: pass a copy to keep the
// pool's own ml state). FailedPrecondition if ml was refused for the pool's size.
absl::StatusOr<google::protobuf::Struct> SuggestForPool(const std::string& pool_name,
                                                        ratings::Pool& pool,
                                                        const SuggestRequest& request);

// The number of entries in a suggest document's `suggestions`.
size_t SuggestionCount(const google::protobuf::Struct& document);

}  // namespace ratingd
