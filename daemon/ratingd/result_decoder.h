// Decoding and validating one record of the results topic (docs/CONTRACTS.md §1). Every way a
// record can be invalid has a reason from a bounded set: the DLQ header and the metric label.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "google/protobuf/timestamp.pb.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/read_results.h"
#include "ratings/result.h"

namespace ratingd {

struct DecodedResult {
  ratings::io::ResultRecord record;  // pool, game id, task, validated result
  google::protobuf::Timestamp event_time;
};

struct Rejection {
  // unparseable | missing_pool | missing_game_id | key_mismatch | too_few_standings |
  // too_many_standings | bad_weight | empty_agent_id | agent_id_too_long | zero_rank |
  // bad_score | duplicate_agent (ratings::ResultProblemName)
  std::string reason;
  std::string message;  // for people: names the field and the problem
};

// The reasons DecodeResult can give, in a fixed order (metric pre-registration).
const std::vector<std::string>& RejectionReasons();

// `key` is the Kafka message key, which must equal the pool (the pool is the key, so one
// pool lives in one partition; docs/CONTRACTS.md §1); an empty key is refused too. Unknown fields
// are tolerated (newer producers, compatible evolution).
std::variant<DecodedResult, Rejection> DecodeResult(absl::string_view key, absl::string_view value,
                                                    const ratings::ResultLimits& limits);

// DecodeResult for the hot path: the message and the decoded result live in the decoder and
// are reused from one record to the next, so a record costs no allocation once the strings
// and vectors have grown to size. The result is valid until the next Decode.
class ResultDecoder {
 public:
  std::variant<const DecodedResult*, Rejection> Decode(absl::string_view key,
                                                       absl::string_view value,
                                                       const ratings::ResultLimits& limits);

 private:
  v1::GameResult message_;
  DecodedResult decoded_;
};

}  // namespace ratingd
