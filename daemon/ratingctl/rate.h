// `ratingctl rate` (docs/CONTRACTS.md §2): replay a file of results through one online model in
// file order and report the ranking.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratingd/v1/report.pb.h"
#include "ratings/io/read_results.h"
#include "ratings/io/vote_input.h"
#include "ratings/progress.h"

namespace ratingd {

struct RateConfig {
  std::string method = {};                         // elo | sco | ml
  std::string input = {};                          // path of the results file
  std::optional<ratings::io::Format> format = {};  // inferred from the extension if unset
  std::vector<std::string> params = {};            // "key=value", see model_params.h
  uint64_t seed = 0;                               // batch sampling; echoed in extra.seed
  std::string pool = {};                           // JSONL: rate only this pool
  // Online models: with replicas (2..256), each entry also gets games, provisional and
  // (elo, sco) the interval fields, as ratingd publishes them for this pool
  // (docs/MODELS.md §5.6). 0: none of them.
  uint32_t bootstrap_replicas = 0;
  uint64_t provisional_games = 20;
  ratings::ProgressFn progress = {};  // batch methods report progress here
};

// The methods RunRate knows, for help texts.
std::vector<std::string> RateMethods();

// Reads config.input and replays it. Errors: unknown method or parameter; unreadable or
// invalid input ("FILE:LINE: problem"); a JSONL file holding several pools without
// config.pool; ml on a pool above its agent limit.
//
// The report: method, agents, results (applied), ranking (rating descending, then agent id
// ascending; ml: lottery probability descending first), and extra:
//   all methods: params (every parameter of the method, defaults included), seed,
//                skipped_votes (PrefLib votes with no pairwise information);
//   ml: lottery (agent -> probability), exploitability, iterations, converged, variant.
absl::StatusOr<v1::RatingReport> RunRate(const RateConfig& config);

// The records RunRate rates: config.input read in config.format (or by extension), of
// the one pool it holds or config.pool. Errors as RunRate's for reading.
struct PoolRecords {
  std::vector<ratings::io::ResultRecord> records;  // file order
  int64_t skipped_votes = 0;                       // see ReadOutput
};
absl::StatusOr<PoolRecords> ReadPoolRecords(const RateConfig& config);

// PrefLib and score-table input (config.format, or the extension) read straight into the
// votes of a batch run (ratings/io/preflib_votes.h, ratings/io/scores_votes.h): what
// ReadPoolRecords and then ToVoteSet give, without a record per voter or row; nullopt for
// the other formats. Errors as ReadPoolRecords's.
absl::StatusOr<std::optional<ratings::io::VoteInput>> ReadVotesDirectly(const RateConfig& config);

// The votes of config.input: ReadVotesDirectly, or for the other formats ReadPoolRecords and
// then ToVoteSet ("FILE:LINE: problem" for a result it refuses); `skipped_votes` as the
// records give it.
absl::StatusOr<ratings::io::VoteInput> ReadPoolVotes(const RateConfig& config);

// What RunRate does after reading: rates `records` (all of one pool; config.input and
// config.pool are used in messages only) with config.method, config.params and
// config.seed. The same report and errors as RunRate. `eval` uses it on train splits.
absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                             absl::Span<const ratings::io::ResultRecord> records,
                                             int64_t skipped_votes);

// One JSON document (protobuf's JSON printer; proto field names; zero values printed;
// map keys sorted, so equal reports give byte-identical text). No trailing newline.
absl::StatusOr<std::string> ReportToJson(const v1::RatingReport& report);

// A fixed-width table for people: rank, agent, rating (and probability for ml).
std::string ReportToTable(const v1::RatingReport& report);

}  // namespace ratingd
