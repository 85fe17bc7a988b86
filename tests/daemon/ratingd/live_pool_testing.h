// Helpers of the LivePool and PartitionState tests: apply one result and collect what the
// pool reports, and deterministic bytes of a message for comparisons.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "daemon/ratingd/live_pool.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message.h"
#include "google/protobuf/timestamp.pb.h"
#include "ratings/result.h"

namespace ratingd::testing {

struct Applied {
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  LivePool::Outcome outcome;
};

// Applies r as game_id (at event_time, none by default, in a record stamped record_time_ms:
// none by default) and collects what LivePool::Apply reports, or its error (callers ASSERT it
// is OK).
inline absl::StatusOr<Applied> Apply(LivePool& pool, const ratings::Result& r,
                                     const std::string& game_id, int64_t record_time_ms = -1,
                                     const google::protobuf::Timestamp* event_time = nullptr) {
  Applied a;
  absl::StatusOr<LivePool::Outcome> outcome =
      pool.Apply(r, game_id, event_time, record_time_ms, &a.deltas, &a.job);
  if (!outcome.ok()) return outcome.status();
  a.outcome = *outcome;
  return a;
}

// The message's bytes, serialised deterministically (map order fixed).
inline std::string Bytes(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  m.SerializeToCodedStream(&coded);
  return out;
}

}  // namespace ratingd::testing
