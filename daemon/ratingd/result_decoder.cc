#include "daemon/ratingd/result_decoder.h"

#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/event_time.h"
#include "ratings/io/game_result_proto.h"

namespace ratingd {

const std::vector<std::string>& RejectionReasons() {
  static const std::vector<std::string>* const reasons = [] {
    auto* r = new std::vector<std::string>{"unparseable", "missing_pool", "missing_game_id",
                                           "key_mismatch", "bad_event_time"};
    using P = ratings::ResultProblem;
    for (P p : {P::kTooFewStandings, P::kTooManyStandings, P::kBadWeight, P::kEmptyAgentId,
                P::kAgentIdTooLong, P::kZeroRank, P::kBadScore, P::kDuplicateAgent}) {
      r->emplace_back(ratings::ResultProblemName(p));
    }
    return r;
  }();
  return *reasons;
}

std::variant<DecodedResult, Rejection> DecodeResult(absl::string_view key, absl::string_view value,
                                                    const ratings::ResultLimits& limits) {
  ResultDecoder decoder;
  std::variant<const DecodedResult*, Rejection> decoded = decoder.Decode(key, value, limits);
  if (auto* rejection = std::get_if<Rejection>(&decoded)) return std::move(*rejection);
  return *std::get<const DecodedResult*>(decoded);
}

std::variant<const DecodedResult*, Rejection> ResultDecoder::Decode(
    absl::string_view key, absl::string_view value, const ratings::ResultLimits& limits) {
  v1::GameResult& message = message_;
  if (!message.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    return Rejection{"unparseable",
                     absl::StrCat("not a ratingd.v1.GameResult (", value.size(), " bytes)")};
  }
  if (message.pool().empty()) return Rejection{"missing_pool", "missing pool"};
  if (message.game_id().empty()) return Rejection{"missing_game_id", "missing game_id"};
  if (key != message.pool()) {
    return Rejection{"key_mismatch", absl::StrCat("message key '", absl::CHexEscape(key),
                                                  "' is not the pool '", message.pool(), "'")};
  }
  // A time ratingd's models can read: within the range a Timestamp holds.
  if (message.has_event_time()) {
    const google::protobuf::Timestamp& t = message.event_time();
    if (t.seconds() < ratings::io::kMinEventSeconds ||
        t.seconds() > ratings::io::kMaxEventSeconds || t.nanos() < 0 ||
        t.nanos() >= 1'000'000'000) {
      return Rejection{"bad_event_time",
                       absl::StrCat("event_time (", t.seconds(), " s, ", t.nanos(),
                                    " ns) is outside ", ratings::io::kEventTimeRange)};
    }
  }
  // Refuse oversized results before converting them.
  if (static_cast<size_t>(message.standings_size()) > limits.max_standings) {
    return Rejection{"too_many_standings",
                     absl::StrCat("too many standings (", message.standings_size(), " > limit ",
                                  limits.max_standings, ")")};
  }
  ratings::io::RecordFromProto(message, &decoded_.record);
  decoded_.event_time = message.event_time();
  std::string why;
  const ratings::ResultProblem problem = ratings::CheckResult(decoded_.record.result, limits, &why);
  if (problem != ratings::ResultProblem::kNone) {
    return Rejection{std::string(ratings::ResultProblemName(problem)), std::move(why)};
  }
  return &decoded_;
}

}  // namespace ratingd
