// The output sink on the transactional Kafka producer (docs/ARCHITECTURE.md §4, §7): deltas to
// the deltas topic (keyed pool/model; the delivery's opaque carries the event times for the
// end-to-end latency, see DeliveryOpaque), leaderboards, dead letters, snapshot chunks, and the
// transaction calls, retried while the broker is away. Deltas and leaderboards go to the
// partition their pool's results partition maps to (OutputPartition), snapshot chunks to the
// results partition's own number.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/output_sink.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

// What a delta record's delivery report carries: the event time of each delta in it (Unix
// microseconds). Allocated per record by the sink, owned and deleted by the delivery
// callback (TakeDeliveryOpaque), whatever the outcome.
using DeliveryOpaque = std::vector<int64_t>;
std::unique_ptr<DeliveryOpaque> TakeDeliveryOpaque(void* opaque);

// The partition of an output topic with `count` partitions that results partition
// `results_partition` writes to (docs/CONTRACTS.md §1.1): the same number, modulo the count
// (a count of 0, not known, leaves the number as it is).
int32_t OutputPartition(int32_t results_partition, int32_t count);

// The partition counts of the deltas and leaderboards topics, read at start.
struct OutputPartitionCounts {
  int32_t deltas = 1;
  int32_t leaderboards = 1;
};

class KafkaOutputSink final : public OutputSink {
 public:
  // `producer` has called init_transactions; `consumer` gives the group metadata the
  // offsets commit with. `while_waiting` runs between retries of a transaction call.
  KafkaOutputSink(const DaemonConfig& config, RdKafka::Producer* producer,
                  RdKafka::KafkaConsumer* consumer, OutputPartitionCounts counts, Metrics* metrics,
                  std::function<void()> while_waiting)
      : config_(config),
        producer_(producer),
        consumer_(consumer),
        counts_(counts),
        metrics_(metrics),
        while_waiting_(std::move(while_waiting)) {}

  absl::Status Commit(const std::vector<PartitionOffset>& offsets) override;
  absl::Status Abort() override;
  bool Flush(absl::Duration timeout) override;
  void Poll(absl::Duration timeout) override;
  // Whether deliveries are outstanding (the loop then waits less for input).
  bool delivering() const { return producer_->outq_len() > 0; }

 protected:
  absl::Status ProduceDelta(int32_t partition, const std::string& key, const std::string& value,
                            int64_t event_unix_us) override;
  absl::Status ProduceDeltaBatch(DeltaBatchRecord&& batch) override;
  absl::Status ProduceLeaderboard(int32_t partition, const std::string& key,
                                  const std::string& value) override;
  absl::Status ProduceDeadLetter(const DeadLetterRecord& letter) override;
  absl::Status ProduceSnapshotRecord(int32_t partition, const std::string& key,
                                     const std::string* value) override;
  absl::Status BeginTransaction() override;

 private:
  // Calls a transactional API until it succeeds (retrying retriable errors: the broker may
  // be away), needs an abort (Aborted), or fails fatally (Internal).
  absl::Status TxnCall(const char* what, const std::function<RdKafka::Error*()>& call);

  const DaemonConfig& config_;
  RdKafka::Producer* producer_;
  RdKafka::KafkaConsumer* consumer_;
  OutputPartitionCounts counts_;
  Metrics* metrics_;
  std::function<void()> while_waiting_;
};

}  // namespace ratingd
