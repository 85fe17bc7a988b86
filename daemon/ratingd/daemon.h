// ratingd on Kafka (docs/ARCHITECTURE.md §1-3; docs/CONTRACTS.md §1, §3, §4): the consumer
// loop around the Kafka-free Pipeline. One thread reads the results topic with the group
// consumer, hands each record to the pipeline, and between batches lets it publish and
// commit; librdkafka's callbacks (rebalance, delivery reports, errors) run on that thread
// too, inside consume() and poll(). The Daemon owns the three Kafka clients (the group
// consumer, the transactional producer behind the output sink, the snapshot reader), the
// pipeline, and the leaderboard cache that lets it answer other instances' pools; it knows
// nothing of pools.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/kafka_inputs.h"
#include "daemon/ratingd/kafka_output_sink.h"
#include "daemon/ratingd/leaderboard_cache.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/pipeline.h"
#include "daemon/ratingd/readiness.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

class Daemon {
 public:
  // Validates the configuration, creates the Kafka clients and the topics, and fences an
  // earlier incarnation with the same transactional id.
  static absl::StatusOr<std::unique_ptr<Daemon>> Create(const DaemonConfig& config,
                                                        Metrics* metrics);
  ~Daemon();

  // Runs until `stop` turns true, then shuts down gracefully (docs/CONTRACTS.md §4). An
  // error for fatal Kafka errors (the supervisor restarts the process) or a final
  // transaction that could not commit.
  absl::Status Run(const std::atomic<bool>& stop);

  // For the HTTP threads.
  const ViewStore& views() const { return pipeline_->views(); }
  const Readiness& readiness() const { return pipeline_->readiness(); }
  const DaemonConfig& config() const { return config_; }

 private:
  explicit Daemon(const DaemonConfig& config, Metrics* metrics);
  class Callbacks;
  // The callbacks_ object as each librdkafka interface (Callbacks is defined in daemon.cc).
  RdKafka::RebalanceCb* rebalance_cb();
  RdKafka::EventCb* event_cb();
  RdKafka::DeliveryReportCb* delivery_cb();
  absl::Status CreateClients();
  absl::Status CreateProducer();
  absl::Status CreateTopics();
  // The deltas and leaderboards topics' partition counts, into output_partitions_.
  absl::Status ReadOutputPartitions(int results_partitions);
  // init_transactions, in short tries first (each on a new producer), then one long one.
  absl::Status InitTransactions();
  absl::Status WarmOutputTopics();
  static constexpr int kQuickInitTries = 3;
  static constexpr int kQuickInitMs = 100;
  void OnMessage(RdKafka::Message& message);
  void OnAssign(std::vector<RdKafka::TopicPartition*>& partitions);
  void OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions);

  // Constant after Create.
  const DaemonConfig config_;
  Metrics* const metrics_;
  SystemClock clock_;
  std::unique_ptr<Callbacks> callbacks_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  std::unique_ptr<RdKafka::Producer> producer_;
  std::unique_ptr<RdKafka::KafkaConsumer> snapshot_reader_;
  // Topic handles of the producer and the snapshot reader, kept so their leaders stay known.
  std::vector<std::unique_ptr<RdKafka::Topic>> output_topics_;
  OutputPartitionCounts output_partitions_;
  std::unique_ptr<KafkaOutputSink> sink_;
  std::unique_ptr<KafkaResultsInput> input_;
  std::unique_ptr<KafkaSnapshotSource> snapshots_;
  // Declared last: destroyed (its threads joined) first, while the clients exist.
  std::unique_ptr<Pipeline> pipeline_;
  // Publishes into the pipeline's view store: destroyed before it.
  std::unique_ptr<LeaderboardCache> leaderboard_cache_;
};

}  // namespace ratingd
