// ratingd's consumer loop (docs/ARCHITECTURE.md §1-3; docs/CONTRACTS.md §1, §3, §4): one
// thread owns every pool; it reads the results topic, validates, de-duplicates, applies,
// publishes deltas, leaderboards and dead letters, and snapshots. Regret-matching solves and
// local snapshot-file writes run on background workers; HTTP queries are answered by the loop
// between records.
//
// Exactly once (docs/ARCHITECTURE.md §4): everything produced for the records
// read since the last commit (deltas, leaderboards, dead letters and, every
// --snapshot-interval, the snapshots) and the consumer offsets commit in one Kafka
// transaction. A partition's state is restored on assignment (and after an aborted
// transaction) from its last snapshot, then the records between the snapshot and the
// committed offset are replayed without emitting anything.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "daemon/kafka/client_config.h"
#include "daemon/ratingd/background_worker.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/partition_state.h"
#include "daemon/ratingd/query_queue.h"
#include "librdkafka/rdkafkacpp.h"
#include "ratings/model.h"

namespace ratingd {

struct DaemonConfig {
  std::string brokers = "127.0.0.1:9092";
  std::string group = "ratingd";
  // Static group membership (group.instance.id): a restarted instance takes its partitions
  // back at once instead of waiting for the session timeout. Empty: dynamic membership.
  std::string instance_id;
  std::string results_topic = "ratingd.results";
  std::string deltas_topic = "ratingd.deltas";
  std::string leaderboards_topic = "ratingd.leaderboards";
  std::string dlq_topic = "ratingd.dlq";
  // A dead letter's key, headers and value stay within this many bytes; a longer input
  // record is cut (header x-ratingd-truncated). A record the DLQ topic refused would abort
  // every transaction in turn, so keep this below the topic's max.message.bytes.
  size_t dlq_max_bytes = 1000000;
  std::string snapshots_topic = "ratingd.snapshots";  // compacted, one per consumer group
  // Stable per instance (a restarted instance fences its predecessor's open transaction);
  // empty: "ratingd-" + instance_id, or + the host name without an instance id.
  std::string transactional_id;
  absl::Duration commit_interval = absl::Milliseconds(100);
  // Fault injection for tests (environment RATINGD_FAULT_ABORT_EVERY): abort every N-th
  // transaction instead of committing it, exercising rollback and rewind. 0 = off.
  uint64_t fault_abort_every = 0;
  int topic_partitions = -1;   // for topics ratingd creates; -1 = broker default
  int topic_replication = -1;  // likewise
  std::string snapshot_dir;
  absl::Duration snapshot_interval = absl::Seconds(30);
  absl::Duration leaderboard_interval = absl::Seconds(1);
  LivePoolConfig pool = {};
  KafkaProperties kafka = {};  // passthrough, applied to consumer and producer
  size_t metrics_max_pools = 100;
  absl::Duration drain_timeout = absl::Seconds(7);  // shutdown budget before the snapshot
};

// Checks what can be checked without a broker (names, intervals, model parameters) and
// creates the snapshot directory. InvalidArgument naming the flag to fix.
absl::Status ValidateDaemonConfig(const DaemonConfig& config);

class Daemon {
 public:
  // Validates the configuration, creates the Kafka clients and the topics.
  static absl::StatusOr<std::unique_ptr<Daemon>> Create(const DaemonConfig& config,
                                                        Metrics* metrics);
  ~Daemon();

  // Runs until `stop` turns true, then shuts down gracefully (docs/CONTRACTS.md §4): stop
  // consuming, finish in-flight solves, publish, commit the last transaction with snapshots,
  // close.
  // Returns an error for fatal Kafka errors (the supervisor restarts the process) or a
  // final transaction that could not commit.
  absl::Status Run(const std::atomic<bool>& stop);

  // Thread-safe: queued for the consumer thread; waits at most `timeout`.
  QueryReply Ask(Query query, absl::Duration timeout) {
    return queries_.Ask(std::move(query), timeout);
  }
  bool ready() const { return ready_.load(); }

 private:
  Daemon(const DaemonConfig& config, Metrics* metrics);
  class Callbacks;
  // The callbacks_ object as each librdkafka interface (Callbacks is defined in daemon.cc).
  RdKafka::RebalanceCb* rebalance_cb();
  RdKafka::EventCb* event_cb();
  RdKafka::DeliveryReportCb* delivery_cb();

  // Consumer thread.
  void OnMessage(RdKafka::Message& message);
  void OnRecord(RdKafka::Message& message, PartitionState& partition);
  void SendToDlq(const RdKafka::Message& message, const std::string& reason,
                 const std::string& why);
  void PublishDelta(const v1::RankingDelta& delta);
  void SubmitMlJob(MlJob job, int32_t partition, bool emit);
  void DrainMlSolutions();
  void PublishLeaderboards(bool force);
  void UpdatePartitionMetrics();
  void ServeQueries();
  void UpdateReadiness();

  // Transactions (daemon_transactions.cc).
  enum class TxnOutcome { kOk, kAborted, kFatal };
  // Calls a transactional API until it succeeds (retrying retriable errors: the broker
  // may be away), needs an abort, or fails fatally (fatal_ is set).
  TxnOutcome TxnCall(const char* what, const std::function<RdKafka::Error*()>& call);
  void BeginTransaction();
  // Waits for the pending ml solves, adds the due snapshots, sends the offsets and commits.
  // On an abortable error, aborts and rolls back. False if nothing was committed.
  bool CommitTransaction(bool with_snapshots);
  // Produces the snapshot of every caught-up partition whose offset moved since its last
  // snapshot; the local files to write once the transaction commits go to *files.
  struct PendingFile {
    int32_t partition = 0;
    int64_t next_offset = 0;
    std::shared_ptr<const std::string> bytes;
  };
  void ProduceSnapshots(std::vector<PendingFile>* files);
  // Aborts the open transaction and restores every held partition to its last commit
  // (rewinding the consumer). While partitions are being revoked (revoking_) nothing is
  // restored: the state is dropped anyway.
  void AbortAndRollback();
  bool revoking_ = false;
  void FinishSnapshotWrites();

  // Partitions (daemon_partitions.cc).
  void OnAssign(const std::vector<RdKafka::TopicPartition*>& partitions);
  void OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions);
  // Restores a partition's state (from the local file if it matches the committed offset,
  // else from the snapshots topic), retrying while the broker is away; false (fatal_
  // set) if it cannot.
  bool RestoreWithRetry(int32_t partition);
  absl::Status RestorePartition(int32_t partition);
  absl::StatusOr<std::optional<v1::Snapshot>> ReadSnapshotTopic(int32_t partition);
  void DropPartition(int32_t partition);

  DaemonConfig config_;
  Metrics* metrics_;
  std::string fingerprint_;
  std::unique_ptr<Callbacks> callbacks_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  std::unique_ptr<RdKafka::Producer> producer_;
  std::unique_ptr<RdKafka::KafkaConsumer> snapshot_reader_;  // assign() only, no group

  // A transaction is committed at least every commit_interval and every this many records.
  static constexpr size_t kMaxTransactionRecords = 20000;
  bool stopping_ = false;
  uint64_t commits_attempted_ = 0;
  bool txn_open_ = false;
  bool txn_dirty_ = false;  // something was produced in the open transaction
  absl::Time txn_started_ = absl::Now();
  size_t txn_records_ = 0;
  absl::flat_hash_map<int32_t, int64_t> committed_;        // offsets committed by us
  absl::flat_hash_map<int32_t, int64_t> snapshot_offset_;  // of the last committed snapshot
  uint64_t next_snapshot_id_;

  std::map<int32_t, PartitionState> partitions_;
  absl::flat_hash_map<std::string, int32_t> pool_partition_;
  absl::flat_hash_map<int32_t, int> pending_ml_;  // solves submitted, not yet accepted
  absl::flat_hash_map<int32_t, uint64_t> incarnation_;
  uint64_t next_incarnation_ = 1;
  absl::Status fatal_;

  // Metric handles looked up once (a Family::Add per record costs a lock and a hash).
  struct PartitionCounters {
    prometheus::Counter* consumed = nullptr;
    prometheus::Gauge* last_timestamp = nullptr;
  };
  absl::flat_hash_map<int32_t, PartitionCounters> partition_counters_;
  absl::flat_hash_map<std::string, prometheus::Counter*> pool_results_;
  absl::flat_hash_map<std::string, prometheus::Counter*> deltas_published_;
  std::vector<v1::RankingDelta> deltas_scratch_;  // reused per record
  std::string bytes_scratch_;

  // Leaderboards due: (pool, model) -> changed since the last publish.
  absl::flat_hash_set<std::pair<std::string, ratings::Model>> dirty_;
  absl::flat_hash_map<std::string, absl::Time> last_published_;  // by "pool/model"
  absl::Time last_snapshot_ = absl::Now();  // when the last snapshots were produced
  absl::Time last_metrics_ = absl::InfinitePast();

  // Background work.
  struct Solved {
    MlSolution solution;
    int32_t partition = 0;
    uint64_t incarnation = 0;
    bool emit = true;  // false while replaying committed records
  };
  std::mutex solved_mu_;
  std::vector<Solved> solved_;
  struct Written {
    absl::StatusOr<size_t> bytes;
  };
  std::mutex written_mu_;
  std::vector<Written> written_;

  QueryQueue queries_;
  std::atomic<bool> ready_{false};

  // Declared last: destroyed (joined) first, while everything above still exists.
  std::unique_ptr<BackgroundWorker> solver_;
  std::unique_ptr<BackgroundWorker> writer_;
};

}  // namespace ratingd
