// ratingd's transactions (docs/ARCHITECTURE.md §4): everything produced for the records read
// since the last commit (deltas, leaderboards, dead letters and, when due, the snapshots of
// the held partitions) and the consumer offsets commit together through the output sink.
// Committed snapshots are also written to local files on a background thread. Consumer
// thread, except the file writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "daemon/ratingd/background_worker.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/dedup_segments.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/mutex.h"
#include "daemon/ratingd/output_sink.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/snapshot_serializer.h"

namespace ratingd {

class Committer {
 public:
  // A transaction commits at least every commit_interval and every this many records.
  static constexpr size_t kMaxTransactionRecords = 100000;
  // The de-duplication segments a commit writes ahead of the next snapshot while the
  // input is idle, at most (in ids' bytes; docs/ARCHITECTURE.md §5.2).
  static constexpr size_t kSegmentsAheadBytes = 512 * 1024;

  Committer(const DaemonConfig& config, const std::string& fingerprint, PartitionRegistry* registry,
            OutputSink* sink, Metrics* metrics, const Clock* clock);

  // Opens a transaction unless one is open. The sink's error if it cannot.
  absl::Status Begin();
  void CountRecord() {
    ++records_;
    none_ahead_ = false;
  }
  // Whether the open transaction is due to commit (`input_idle`: the last read found
  // nothing more; then also to write segments ahead), and whether its commit should carry
  // snapshots (every snapshot_interval).
  bool CommitDue(bool input_idle = false) const;
  bool SnapshotsDue() const;
  // Commits the open transaction (with a snapshot of every held partition whose offset moved
  // since its last one, if `with_snapshots`, and of every partition whose replay just
  // ended) and opens the next. `segments_ahead` (the input is idle): the commit also
  // writes up to kSegmentsAheadBytes of the sealed de-duplication segments the next
  // snapshot would, so that it need not. The caller has published
  // what the transaction should hold. Aborted: the transaction must be aborted and the state
  // rolled back (Abort, then restore); another error is fatal.
  absl::Status Commit(bool with_snapshots, bool segments_ahead = false);
  // Aborts the open transaction.
  absl::Status Abort();
  // Captures every held partition whose offset moved since its last snapshot, for the
  // serializer's thread to write out: called right after a commit when SnapshotsDue(), the
  // snapshots hold the state at the offsets just committed. ProduceSerialized puts them in
  // the transaction open once they are written, and they commit with it
  // (docs/ARCHITECTURE.md §4.3). Nothing while a round is in flight.
  void StartSnapshots();
  // The round StartSnapshots began, once serialised (`wait`: waiting for it), into the open
  // transaction: called at each turn of the consumer loop, it goes out as soon as it is
  // ready, its chunks delivered while the transaction goes on. A snapshot of a partition
  // revoked or restored since its capture is dropped.
  void ProduceSerialized(bool wait);
  // Waits until the round in flight is serialised (tests: which transaction carries it
  // then no longer depends on the serializer thread's speed).
  void WaitSerialized() { serializer_.WaitIdle(); }
  bool open() const { return open_; }
  // No fault injection from now on (the final commits of a shutdown or revocation).
  void set_stopping() { stopping_ = true; }

  // Reports failed local snapshot writes (consumer thread, between batches).
  void FinishSnapshotWrites();
  // Waits for the pending local snapshot writes.
  void WaitSnapshotWrites() { writer_.WaitIdle(); }

 private:
  struct PendingFile {
    int32_t partition = 0;
    int64_t next_offset = 0;
    std::shared_ptr<const std::string> bytes;  // as in the snapshots topic's chunks
    std::vector<PoolSegment> segments;         // appended: the file stands alone
  };
  // Produces the snapshot of every caught-up partition (`all`) or of those whose replay
  // just ended, if its offset moved since its last snapshot; the files to write once the
  // transaction commits go to *files.
  void ProduceSnapshots(bool all, std::vector<PendingFile>* files);
  // Whether `state` is to be snapshotted now (caught up, its offset moved), and its capture.
  bool WantsSnapshot(const PartitionState& state) const;
  CapturedSnapshot Capture(PartitionState& state);
  // Produces a serialised snapshot into the open transaction; its file is written once the
  // transaction commits.
  void Produce(SerializedSnapshot snapshot, std::vector<PendingFile>* files);

  // Segments ahead of the next snapshot: whether a caught-up partition has any, and
  // producing them.
  bool HasSegmentsAhead() const;
  void ProduceSegmentsAhead();
  std::vector<PartitionOffset> OffsetsToCommit() const;
  // Abort the transaction instead of committing it (RATINGD_FAULT_ABORT_EVERY).
  bool InjectAbort();
  void Committed(const std::vector<PartitionOffset>& offsets, absl::Time start);

  const DaemonConfig& config_;
  const std::string& fingerprint_;
  PartitionRegistry* registry_;
  OutputSink* sink_;
  Metrics* metrics_;
  const Clock* clock_;

  bool open_ = false;
  bool stopping_ = false;
  absl::Time started_;
  size_t records_ = 0;
  // No caught-up partition had a segment to write ahead when HasSegmentsAhead last looked,
  // and no record came since, so none can have been sealed: an idle loop does not look
  // through every pool at each turn. (A partition restored meanwhile from a format-1
  // snapshot may have some; its next snapshot writes them.)
  mutable bool none_ahead_ = false;
  uint64_t attempts_ = 0;
  absl::Time last_snapshot_;
  uint64_t next_snapshot_id_;
  std::vector<PendingFile> files_;  // snapshots in the open transaction: files once it commits
  SnapshotSerializer serializer_;

  Mutex written_mu_;
  std::vector<absl::Status> write_failures_ ABSL_GUARDED_BY(written_mu_);
  BackgroundWorker writer_;  // last: joined first, while the members above exist
};

}  // namespace ratingd
