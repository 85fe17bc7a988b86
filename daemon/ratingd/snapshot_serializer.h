// Snapshots serialised off the consumer thread (docs/ARCHITECTURE.md §4.2): the consumer
// thread captures each partition's state (PartitionState::CaptureSnapshot: the bytes of all
// but the rating histories, whose points it shares) and hands the round over; a worker
// thread writes the snapshots' bytes and cuts them into chunks; the consumer thread takes
// the finished round and produces it into its open transaction.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "daemon/ratingd/background_worker.h"
#include "daemon/ratingd/dedup_segments.h"
#include "daemon/ratingd/mutex.h"
#include "daemon/ratingd/partition_state.h"
#include "daemon/ratingd/snapshot_chunks.h"

namespace ratingd {

// One partition's snapshot as captured on the consumer thread.
struct CapturedSnapshot {
  int32_t partition = 0;
  uint64_t incarnation = 0;  // of the partition's state (PartitionState::incarnation)
  int64_t next_offset = 0;
  uint64_t snapshot_id = 0;
  SnapshotCapture capture;
  // Taken with the capture: the de-duplication records to write with the snapshot
  // (TakeDedupRecords), and the sealed segments its local file appends (SealedSegments).
  std::vector<SnapshotRecord> dedup;
  std::vector<PoolSegment> sealed;
  double capture_seconds = 0.0;  // on the consumer thread
};

// The same, serialised: what the snapshots topic and the local file receive.
struct SerializedSnapshot {
  int32_t partition = 0;
  uint64_t incarnation = 0;
  int64_t next_offset = 0;
  std::shared_ptr<const std::string> bytes;  // the serialised Snapshot
  std::vector<ChunkRecord> chunks;
  std::vector<SnapshotRecord> dedup;
  std::vector<PoolSegment> sealed;
  double capture_seconds = 0.0;
};

// Any thread: the bytes and the chunks of the snapshots topic `topic`'s records for group
// `group`.
SerializedSnapshot SerializeSnapshot(CapturedSnapshot captured, const std::string& group,
                                     const std::string& topic);

// One round in flight at a time. Submit, Take and Discard: the consumer thread.
class SnapshotSerializer {
 public:
  SnapshotSerializer(std::string group, std::string topic)
      : group_(std::move(group)), topic_(std::move(topic)) {}

  // Precondition: !busy().
  void Submit(std::vector<CapturedSnapshot> round);
  // A round was submitted and neither taken nor discarded.
  bool busy() const { return busy_; }
  // The round, serialised; nullopt while the worker is still at it (`wait`: blocks until it
  // is done) or when no round is in flight.
  std::optional<std::vector<SerializedSnapshot>> Take(bool wait);
  // Forgets the round in flight (an abort: the state it captured is being rebuilt).
  void Discard();
  // Blocks until the worker has finished what was submitted.
  void WaitIdle() { worker_.WaitIdle(); }

 private:
  const std::string group_;
  const std::string topic_;
  bool busy_ = false;
  uint64_t generation_ = 0;  // of the round in flight

  Mutex mu_;
  std::optional<std::vector<SerializedSnapshot>> done_ ABSL_GUARDED_BY(mu_);
  uint64_t done_generation_ ABSL_GUARDED_BY(mu_) = 0;
  BackgroundWorker worker_;  // last: joined first, while the members above exist
};

}  // namespace ratingd
