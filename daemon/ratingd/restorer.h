// Restoring a partition's state on assignment or after a rollback (docs/ARCHITECTURE.md §4):
// from the local snapshot file if it matches the group's committed offset exactly, else from
// the last complete snapshot in the snapshots topic; the records between the snapshot and the
// committed offset are then replayed without emitting (RecordProcessor). Consumer thread.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/partition_state.h"
#include "daemon/ratingd/results_input.h"

namespace ratingd {

class Restorer {
 public:
  Restorer(const DaemonConfig& config, const std::string& fingerprint, ResultsInput* input,
           SnapshotSource* snapshots, Metrics* metrics, const Clock* clock)
      : config_(config),
        fingerprint_(fingerprint),
        input_(input),
        snapshots_(snapshots),
        metrics_(metrics),
        clock_(clock) {}

  // One attempt. The state is at its snapshot's offset (0 without one), to replay up to
  // replay_until = the committed offset. InvalidArgument or FailedPrecondition if the
  // snapshot does not fit this configuration or topic (the operator must act); Unavailable
  // while the broker cannot be reached (try again).
  absl::StatusOr<PartitionState> Restore(int32_t partition);

 private:
  // The snapshot to start from and where it came from (for the log).
  absl::StatusOr<std::optional<v1::Snapshot>> Snapshot(int32_t partition, int64_t committed,
                                                       std::string* source);

  const DaemonConfig& config_;
  const std::string& fingerprint_;
  ResultsInput* input_;
  SnapshotSource* snapshots_;
  Metrics* metrics_;
  const Clock* clock_;
};

}  // namespace ratingd
