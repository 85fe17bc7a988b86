// Conversion between the wire GameResult (proto/ratingd/v1) and ratings::Result.
#pragma once

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/read_results.h"
#include "ratings/result.h"

namespace ratings::io {

// Checks what the wire adds to ValidateResult (pool and game id present, an event time inside
// the range of a Timestamp, docs/CONTRACTS.md §1)
// and then ValidateResult itself; on success returns the record (line left at 0). Messages
// name the field ("missing pool", "standings[1]: rank 0; ...").
absl::StatusOr<ResultRecord> FromProto(const ratingd::v1::GameResult& message,
                                       const ResultLimits& limits);
// FromProto's checks on a record already converted (or read from JSON without protobuf, as
// ParseJsonl's fast path does): the same order and the same messages.
absl::Status ValidateRecord(const ResultRecord& record, const ResultLimits& limits);

// The conversion alone, with no check (callers classify problems themselves).
ResultRecord RecordFromProto(const ratingd::v1::GameResult& message);
// The same into *record, reusing its strings' and vectors' storage (the daemon's hot path).
void RecordFromProto(const ratingd::v1::GameResult& message, ResultRecord* record);

// The inverse, for producers and tests: pool, game id, task, standings, weight, event time.
ratingd::v1::GameResult ToProto(const ResultRecord& record);

// A time as a Timestamp: seconds rounded down, nanoseconds truncated.
google::protobuf::Timestamp TimestampOf(absl::Time time);

}  // namespace ratings::io
