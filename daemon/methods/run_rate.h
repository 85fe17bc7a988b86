// `ratingctl rate` without its command line (docs/CONTRACTS.md §2): a method of the registry
// (method_registry.h) on a file's results or votes.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "daemon/methods/rate_config.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/io/read_results.h"

namespace ratingd {

// Checks config.method and its parameters (and --bootstrap-replicas: online methods only,
// 0 or 2..256) before reading anything, then reads config.input (votes straight from a
// PrefLib file or score table for a method of input kVotes; records otherwise) and rates
// it. Errors: unknown method or parameter; unreadable or invalid input ("FILE:LINE:
// problem"); a JSONL file holding several pools without config.pool; ml on a pool above its
// agent limit.
//
// The report: method, agents, results (applied), ranking (rating descending, then agent id
// ascending; ml: lottery probability descending first), and extra:
//   all methods: params (every parameter of the method, defaults included), seed,
//                skipped_votes (PrefLib votes with no pairwise information);
//   the rest per method (docs/CONTRACTS.md §2).
absl::StatusOr<v1::RatingReport> RunRate(const RateConfig& config);

// What RunRate does after reading: rates `records` (all of one pool; config.input and
// config.pool are used in messages only). The same report and errors as RunRate. `eval`
// uses it on train splits.
absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                             absl::Span<const ratings::io::ResultRecord> records,
                                             int64_t skipped_votes);

}  // namespace ratingd
