// An in-memory stand-in for the Kafka broker of the record path's unit tests: a results
// topic with partitions, and the committed output topics (deltas, leaderboards, dead
// letters, snapshots) and group offsets. FakeOutputSink buffers a transaction's records
// and makes them visible only when it commits (read committed), dropping them on abort.
// FakeConsumer drives a Pipeline over the results topic the way Daemon does over Kafka:
// assignments, revocations, batches of records, then Tick. Several pipelines may share one
// broker (handovers).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "daemon/ratingd/output_sink.h"
#include "daemon/ratingd/pipeline.h"
#include "daemon/ratingd/results_input.h"
#include "ratingd/v1/delta.pb.h"

namespace ratingd::testing {

struct FakeRecord {
  std::string key;
  std::string value;
  RecordHeaders headers;
  bool tombstone = false;  // no value
  int32_t partition = -1;  // the results partition given with a delta or leaderboard
};

struct FakeBroker {
  explicit FakeBroker(int32_t partition_count) : results(partition_count) {}

  // Appends a record (stamped timestamp_ms; -1: none) to a results partition; returns its
  // offset.
  int64_t Append(int32_t partition, std::optional<std::string> key, std::string value,
                 int64_t timestamp_ms = -1);

  // The committed deltas and leaderboards, parsed, in log order.
  std::vector<v1::RankingDelta> Deltas() const;
  std::vector<v1::Leaderboard> Leaderboards() const;
  // The last committed leaderboard of each key ("pool/model").
  std::map<std::string, v1::Leaderboard> LastLeaderboards() const;
  std::map<std::string, v1::RankingDelta> LastDeltas() const;

  struct Input {
    std::optional<std::string> key;
    std::string value;
    int64_t timestamp_ms = -1;  // the record's timestamp (Unix ms); -1: none
  };
  std::vector<std::vector<Input>> results;
  // Committed, visible to read_committed readers. `deltas` has one RankingDelta per entry
  // in either format (a version 2 batch is unpacked); delta_records counts the records.
  std::vector<FakeRecord> deltas, leaderboards, dead_letters;
  size_t delta_records = 0;
  std::map<int32_t, std::vector<FakeRecord>> snapshots;  // by partition
  // Log compaction of the snapshots topic: the last record of each key is kept, and
  // tombstones are dropped (as Kafka does once delete.retention.ms has passed).
  void CompactSnapshots();
  std::map<int32_t, int64_t> committed_offsets;  // the consumer group's
  int commits = 0;
  int aborts = 0;
};

class FakeOutputSink final : public OutputSink {
 public:
  explicit FakeOutputSink(FakeBroker* broker) : broker_(broker) {}

  absl::Status Commit(const std::vector<PartitionOffset>& offsets) override;
  absl::Status Abort() override;
  bool Flush(absl::Duration) override { return true; }
  void Poll(absl::Duration) override {}

  // The next `n` commits fail with Aborted (as when the transaction coordinator aborted).
  void FailNextCommits(int n) { fail_commits_ = n; }
  bool open() const { return open_; }
  size_t pending() const;

 protected:
  absl::Status ProduceDelta(int32_t partition, const std::string& key, const std::string& value,
                            int64_t) override;
  absl::Status ProduceDeltaBatch(DeltaBatchRecord&& batch) override;
  absl::Status ProduceLeaderboard(int32_t partition, const std::string& key,
                                  const std::string& value) override;
  absl::Status ProduceDeadLetter(const DeadLetterRecord& letter) override;
  absl::Status ProduceSnapshotRecord(int32_t partition, const std::string& key,
                                     const std::string* value) override;
  absl::Status BeginTransaction() override;

 private:
  absl::Status CheckOpen() const;

  FakeBroker* broker_;
  bool open_ = false;
  int fail_commits_ = 0;
  std::vector<FakeRecord> deltas_, leaderboards_, dead_letters_;
  size_t delta_records_ = 0;
  std::map<int32_t, std::vector<FakeRecord>> snapshots_;
};

class FakeSnapshotSource final : public SnapshotSource {
 public:
  FakeSnapshotSource(const FakeBroker* broker, std::string group, std::string topic)
      : broker_(broker), group_(std::move(group)), topic_(std::move(topic)) {}
  absl::StatusOr<std::optional<v1::Snapshot>> Latest(int32_t partition) override;

 private:
  const FakeBroker* broker_;
  std::string group_, topic_;
};

// The group consumer of one instance: positions of its assigned partitions.
class FakeConsumer final : public ResultsInput {
 public:
  explicit FakeConsumer(const FakeBroker* broker) : broker_(broker) {}
  void set_pipeline(Pipeline* pipeline) { pipeline_ = pipeline; }

  absl::StatusOr<int64_t> Committed(int32_t partition) override;
  absl::Status Seek(int32_t partition, int64_t offset) override;
  std::optional<WatermarkOffsets> Watermarks(int32_t partition) override;

  // As librdkafka's rebalance callback: the pipeline restores, then positions are set.
  void Assign(const std::vector<int32_t>& partitions);
  void Revoke(const std::vector<int32_t>& partitions);
  // Delivers up to `max` records (partitions in order, from their positions), fewer if a
  // commit is wanted after one (Pipeline::CommitWanted, as the Daemon's loop), then Tick
  // (with set_report_idle, telling it the input is idle if the records ran out, as the
  // Daemon's loop does; otherwise never, as under a backlog), then waits for a snapshot
  // round it began to be serialised (Pipeline::WaitSnapshotsSerialized).
  // Returns how many were delivered.
  size_t Poll(size_t max = 1000);
  // Polls until no record is left, then once more (housekeeping).
  void PollAll();
  void set_report_idle(bool report_idle) { report_idle_ = report_idle; }

 private:
  const FakeBroker* broker_;
  Pipeline* pipeline_ = nullptr;
  bool report_idle_ = false;
  std::map<int32_t, int64_t> positions_;
};

}  // namespace ratingd::testing
