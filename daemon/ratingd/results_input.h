// What the record path needs of the results topic's consumer besides its records, and of
// the snapshots topic: seams so that unit tests run the path on a fake topic
// (tests/fakes/fake_broker.h). In production: KafkaResultsInput, KafkaSnapshotSource.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ratingd/v1/snapshot.pb.h"

namespace ratingd {

struct WatermarkOffsets {
  int64_t low = 0;
  int64_t high = 0;  // the offset the next record written will get
};

class ResultsInput {
 public:
  virtual ~ResultsInput() = default;
  // The consumer group's committed offset of a partition; -1 if it has none.
  // Unavailable while the broker cannot be reached.
  virtual absl::StatusOr<int64_t> Committed(int32_t partition) = 0;
  // Moves the consumer's position (after a rollback: back to the last commit).
  virtual absl::Status Seek(int32_t partition, int64_t offset) = 0;
  // The partition's last known watermarks (no broker round trip); nullopt if not yet known.
  virtual std::optional<WatermarkOffsets> Watermarks(int32_t partition) = 0;
};

class SnapshotSource {
 public:
  virtual ~SnapshotSource() = default;
  // The latest complete snapshot of a results partition in the snapshots topic (read
  // committed); nullopt if there is none. FailedPrecondition if the topic holds another
  // group's or topic's snapshots; Unavailable while the broker cannot be reached.
  virtual absl::StatusOr<std::optional<v1::Snapshot>> Latest(int32_t partition) = 0;
};

}  // namespace ratingd
