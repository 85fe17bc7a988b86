// Where the record path's output goes (docs/ARCHITECTURE.md §4): deltas, leaderboards, dead
// letters and snapshot chunks, produced inside a transaction that commits them together with
// the consumer offsets. In production the transactional Kafka producer (KafkaOutputSink); in
// unit tests an in-memory fake (tests/fakes/fake_broker.h).
//
// Transaction calls return OK, Aborted (the transaction must be aborted and the state rolled
// back to the last commit), or another error (fatal: the process exits for its supervisor to
// restart it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "daemon/ratingd/dead_letter.h"
#include "daemon/ratingd/delta_batcher.h"

namespace ratingd {

// The next offset to read of one partition of the results topic.
struct PartitionOffset {
  int32_t partition = 0;
  int64_t next_offset = 0;
  bool operator==(const PartitionOffset& o) const {
    return partition == o.partition && next_offset == o.next_offset;
  }
};

class OutputSink {
 public:
  virtual ~OutputSink() = default;

  // Each adds one record to the open transaction. An error is logged by the caller: the
  // transaction then fails to commit and is rolled back. A delta or leaderboard goes to the
  // partition of its topic that its pool's results partition `partition` maps to
  // (docs/CONTRACTS.md §1.1), so that an instance's open transaction holds back only
  // partitions of its own pools.
  absl::Status Delta(int32_t partition, const std::string& key, const std::string& value,
                     int64_t event_unix_us) {
    ++produced_;
    return ProduceDelta(partition, key, value, event_unix_us);
  }
  // A RankingDeltaBatch (deltas topic version 2).
  absl::Status DeltaBatch(DeltaBatchRecord&& batch) {
    ++produced_;
    return ProduceDeltaBatch(std::move(batch));
  }
  absl::Status Leaderboard(int32_t partition, const std::string& key, const std::string& value) {
    ++produced_;
    return ProduceLeaderboard(partition, key, value);
  }
  absl::Status DeadLetter(const DeadLetterRecord& letter) {
    ++produced_;
    return ProduceDeadLetter(letter);
  }
  // A chunk of partition `partition`'s snapshot, or a de-duplication segment of one of its
  // pools, goes to that partition of the snapshots topic (docs/ARCHITECTURE.md §5); a
  // tombstone deletes a segment that no snapshot refers to any more.
  absl::Status SnapshotChunk(int32_t partition, const std::string& key, const std::string& value) {
    ++produced_;
    return ProduceSnapshotRecord(partition, key, &value);
  }
  absl::Status SnapshotTombstone(int32_t partition, const std::string& key) {
    ++produced_;
    return ProduceSnapshotRecord(partition, key, nullptr);
  }
  // Records produced since the transaction began.
  size_t produced() const { return produced_; }

  absl::Status Begin() {
    absl::Status s = BeginTransaction();
    if (s.ok()) produced_ = 0;
    return s;
  }
  // Adds the consumer offsets to the transaction and commits it.
  virtual absl::Status Commit(const std::vector<PartitionOffset>& offsets) = 0;
  virtual absl::Status Abort() = 0;
  // Waits until everything produced is acknowledged; false on timeout.
  virtual bool Flush(absl::Duration timeout) = 0;
  // Serves delivery reports, waiting up to `timeout` for one.
  virtual void Poll(absl::Duration timeout) = 0;

 protected:
  virtual absl::Status ProduceDelta(int32_t partition, const std::string& key,
                                    const std::string& value, int64_t event_unix_us) = 0;
  virtual absl::Status ProduceDeltaBatch(DeltaBatchRecord&& batch) = 0;
  virtual absl::Status ProduceLeaderboard(int32_t partition, const std::string& key,
                                          const std::string& value) = 0;
  virtual absl::Status ProduceDeadLetter(const DeadLetterRecord& letter) = 0;
  // `value` null: a tombstone.
  virtual absl::Status ProduceSnapshotRecord(int32_t partition, const std::string& key,
                                             const std::string* value) = 0;
  virtual absl::Status BeginTransaction() = 0;

 private:
  size_t produced_ = 0;
};

}  // namespace ratingd
