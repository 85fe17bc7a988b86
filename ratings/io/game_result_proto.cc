#include "ratings/io/game_result_proto.h"

#include <optional>
#include <utility>

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
  record->result.standings.resize(static_cast<size_t>(message.standings_size()));
  for (int i = 0; i < message.standings_size(); ++i) {
    const ratingd::v1::Standing& s = message.standings(i);
    Standing& standing = record->result.standings[static_cast<size_t>(i)];
    standing.agent.assign(s.agent());
    standing.rank = s.rank();
    standing.score = s.has_score() ? std::optional<double>(s.score()) : std::nullopt;
  }
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
  // Always explicit, so that a round trip reproduces the message exactly.
  message.set_weight(record.result.weight);
  return message;
}

}  // namespace ratings::io
