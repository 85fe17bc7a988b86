#include "ratings/io/game_result_proto.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "ratings/io/event_time.h"
#include "ratings/status_macros.h"

namespace ratings::io {

absl::StatusOr<ResultRecord> FromProto(const ratingd::v1::GameResult& message,
                                       const ResultLimits& limits) {
  ResultRecord record = RecordFromProto(message);
  RETURN_IF_ERROR(ValidateRecord(record, limits));
  return record;
}

absl::Status ValidateRecord(const ResultRecord& record, const ResultLimits& limits) {
  if (record.pool.empty()) return absl::InvalidArgumentError("missing pool");
  if (record.game_id.empty()) return absl::InvalidArgumentError("missing game_id");
  if (record.event_time.has_value() &&
      (*record.event_time < absl::FromUnixSeconds(kMinEventSeconds) ||
       *record.event_time >= absl::FromUnixSeconds(kMaxEventSeconds + 1))) {
    return absl::InvalidArgumentError(
        absl::StrCat("event_time ", absl::FormatTime(*record.event_time, absl::UTCTimeZone()),
                     " is outside ", kEventTimeRange));
  }
  return ValidateResult(record.result, limits);
}

ResultRecord RecordFromProto(const ratingd::v1::GameResult& message) {
  ResultRecord record;
  RecordFromProto(message, &record);
  return record;
}

void RecordFromProto(const ratingd::v1::GameResult& message, ResultRecord* record) {
  record->pool.assign(message.pool());
  record->game_id.assign(message.game_id());
  record->task.assign(message.task());
  record->result.weight = message.has_weight() ? message.weight() : 1.0;
  record->event_time = message.has_event_time()
                           ? std::optional(absl::FromUnixSeconds(message.event_time().seconds()) +
                                           absl::Nanoseconds(message.event_time().nanos()))
                           : std::nullopt;
  record->result.standings.resize(static_cast<size_t>(message.standings_size()));
  for (int i = 0; i < message.standings_size(); ++i) {
    const ratingd::v1::Standing& s = message.standings(i);
    Standing& standing = record->result.standings[static_cast<size_t>(i)];
    standing.agent.assign(s.agent());
    standing.rank = s.rank();
    standing.score = s.has_score() ? std::optional<double>(s.score()) : std::nullopt;
  }
}

google::protobuf::Timestamp TimestampOf(absl::Time time) {
  const int64_t seconds = absl::ToUnixSeconds(time);  // rounded down
  google::protobuf::Timestamp out;
  out.set_seconds(seconds);
  out.set_nanos(
      static_cast<int32_t>(absl::ToInt64Nanoseconds(time - absl::FromUnixSeconds(seconds))));
  return out;
}

ratingd::v1::GameResult ToProto(const ResultRecord& record) {
  ratingd::v1::GameResult message;
  message.set_pool(record.pool);
  message.set_game_id(record.game_id);
  message.set_task(record.task);
  for (const Standing& s : record.result.standings) {
    ratingd::v1::Standing* out = message.add_standings();
    out->set_agent(s.agent);
    out->set_rank(s.rank);
    if (s.score.has_value()) out->set_score(*s.score);
  }
  if (record.event_time.has_value())
    *message.mutable_event_time() = TimestampOf(*record.event_time);
  // Always explicit, so that a round trip reproduces the message exactly.
  message.set_weight(record.result.weight);
  return message;
}

}  // namespace ratings::io
