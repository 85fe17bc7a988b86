// The state ratingd keeps for one partition of the results topic: its pools (a pool lives
// in exactly one partition: the pool is the message key, docs/CONTRACTS.md §1) and the next
// offset to read. Snapshots are per partition (docs/ARCHITECTURE.md §5):
// <dir>/<topic>.<partition>.snapshot, written atomically.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/snapshot_file.h"
#include "ratingd/v1/snapshot.pb.h"

namespace ratingd {

// The format this version writes; it reads every format from kOldestSnapshotFormat on
// (docs/ARCHITECTURE.md §5.5). 2: the de-duplication window in sealed segments. 3: the
// pools' bootstrap replicas and result counts (docs/MODELS.md §5.6). 4: the replicas as
// whole grid steps from the point ratings.
inline constexpr uint32_t kSnapshotFormat = 4;
inline constexpr uint32_t kOldestSnapshotFormat = 1;

// A partition's snapshot as taken on the consumer thread (PartitionState::CaptureSnapshot):
// the Snapshot's own fields, then each pool's capture.
struct SnapshotCapture {
  std::string header;
  std::vector<PoolCapture> pools;
};
// The capture's bytes (a serialised Snapshot). Any thread.
std::string SerializeCapture(const SnapshotCapture& capture);

struct PartitionState {
  std::string topic;
  int32_t partition = 0;
  int64_t next_offset = 0;  // every record before it is reflected in `pools`
  // Records below this offset were processed and committed before (by this instance or
  // another): they are replayed into `pools` without emitting anything.
  int64_t replay_until = 0;
  std::map<std::string, std::unique_ptr<LivePool>> pools;  // ordered: deterministic snapshots
  bool replaying() const { return next_offset < replay_until; }

  // Bookkeeping of the instance holding the partition (not in snapshots). Each field
  // changes through the one operation named for it.
  // The offset last committed for it (-1: none).
  int64_t committed_offset() const { return committed_offset_; }
  // next_offset of its last committed snapshot (-1: none).
  int64_t snapshot_offset() const { return snapshot_offset_; }
  // A new number per restore (set by PartitionRegistry::Insert): ml solves of an older one
  // are void.
  uint64_t incarnation() const { return incarnation_; }
  // A replay just ended: the next commit carries a snapshot, so that the next restore
  // replays at most what came after it (docs/ARCHITECTURE.md §4).
  bool snapshot_due() const { return snapshot_due_; }

  // The restorer: the offsets the partition was restored at.
  void Restored(int64_t committed, int64_t snapshot) {
    committed_offset_ = committed;
    snapshot_offset_ = snapshot;
  }
  // The committer: the offset or the snapshot a transaction committed.
  void OffsetCommitted(int64_t offset) { committed_offset_ = offset; }
  void SnapshotCommitted(int64_t offset) { snapshot_offset_ = offset; }
  // The record processor at the end of a replay; the committer takes it when it snapshots.
  void RequestSnapshot() { snapshot_due_ = true; }
  bool TakeSnapshotRequest() { return std::exchange(snapshot_due_, false); }

  // The pool named `name`, created if new.
  absl::StatusOr<LivePool*> GetOrCreate(const std::string& name, const LivePoolConfig& config);
  // Records not yet emitted, given the partition's watermarks (ratingd_consumer_lag_records):
  // from next_offset (at least `low`) to `high`; while replaying, from replay_until instead
  // (the replayed records were emitted before). Never negative.
  int64_t Lag(int64_t low, int64_t high) const;
  // Snapshots (partition_snapshot.cc). Stand-alone: with the sealed de-duplication
  // segments in dedup_segments.
  v1::Snapshot ToSnapshot(const std::string& params_fingerprint) const;
  // ToSnapshot with `group` and `written_unix_ms` set and without the dedup_segments (the
  // form of the snapshots topic's chunks), serialised without building the pools' messages
  // whole (LivePool::CaptureSnapshot): captured now (consumer thread), serialised by
  // SerializeCapture on any thread.
  SnapshotCapture CaptureSnapshot(const std::string& params_fingerprint, const std::string& group,
                                  int64_t written_unix_ms) const;
  std::string SerializeSnapshot(const std::string& params_fingerprint, const std::string& group,
                                int64_t written_unix_ms) const {
    return SerializeCapture(CaptureSnapshot(params_fingerprint, group, written_unix_ms));
  }
  // InvalidArgument if the snapshot's format, partition or parameters do not match, or a
  // pool does not restore (the message names the pool and the problem). A format 2
  // snapshot must stand alone (its pools' segments in dedup_segments).
  static absl::StatusOr<PartitionState> FromSnapshot(v1::Snapshot snapshot,
                                                     const LivePoolConfig& config,
                                                     const std::string& params_fingerprint);

 private:
  friend class PartitionRegistry;  // the one writer of incarnation_

  // Format, offset and fingerprint: what both snapshot forms start with.
  v1::Snapshot SnapshotHeader(const std::string& params_fingerprint) const;

  int64_t committed_offset_ = -1;
  int64_t snapshot_offset_ = -1;
  uint64_t incarnation_ = 0;
  bool snapshot_due_ = false;
};

// A fingerprint of everything that must match for a snapshot to be continued exactly:
// enabled models, their parameters, limits, dedup window and ml schedule.
std::string ParamsFingerprint(const LivePoolConfig& config);

}  // namespace ratingd
