// The record path's inputs besides the records, on Kafka: the group consumer's committed
// offsets, positions and watermarks (KafkaResultsInput), and the snapshots topic read with
// a consumer of its own that never joins the group (KafkaSnapshotSource).
#pragma once

#include <cstdint>
#include <optional>

#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/results_input.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

class KafkaResultsInput final : public ResultsInput {
 public:
  KafkaResultsInput(const DaemonConfig& config, RdKafka::KafkaConsumer* consumer)
      : config_(config), consumer_(consumer) {}
  absl::StatusOr<int64_t> Committed(int32_t partition) override;
  // Offset 0 seeks to the beginning (offset 0 may be gone to retention).
  absl::Status Seek(int32_t partition, int64_t offset) override;
  std::optional<WatermarkOffsets> Watermarks(int32_t partition) override;

 private:
  const DaemonConfig& config_;
  RdKafka::KafkaConsumer* consumer_;
};

class KafkaSnapshotSource final : public SnapshotSource {
 public:
  // `reader` is assigned partitions only, and never joins a group nor commits.
  KafkaSnapshotSource(const DaemonConfig& config, RdKafka::KafkaConsumer* reader,
                      const Clock* clock)
      : config_(config), reader_(reader), clock_(clock) {}
  absl::StatusOr<std::optional<v1::Snapshot>> Latest(int32_t partition) override;

 private:
  const DaemonConfig& config_;
  RdKafka::KafkaConsumer* reader_;
  const Clock* clock_;
};

}  // namespace ratingd
