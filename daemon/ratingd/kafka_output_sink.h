// The output sink on the transactional Kafka producer (docs/ARCHITECTURE.md §4, §7): deltas to
// the deltas topic (keyed pool/model; the delivery's opaque carries the event times for the
// end-to-end latency, see DeliveryOpaque), leaderboards, dead letters, snapshot chunks (to the
// results partition's number), and the transaction calls, retried while the broker is away.
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

class KafkaOutputSink final : public OutputSink {
 public:
  // `producer` has called init_transactions; `consumer` gives the group metadata the
  // offsets commit with. `while_waiting` runs between retries of a transaction call.
  KafkaOutputSink(const DaemonConfig& config, RdKafka::Producer* producer,
                  RdKafka::KafkaConsumer* consumer, Metrics* metrics,
                  std::function<void()> while_waiting)
      : config_(config),
        producer_(producer),
        consumer_(consumer),
        metrics_(metrics),
        while_waiting_(std::move(while_waiting)) {}

  absl::Status Commit(const std::vector<PartitionOffset>& offsets) override;
  absl::Status Abort() override;
  bool Flush(absl::Duration timeout) override;
  void Poll(absl::Duration timeout) override;
  // Whether deliveries are outstanding (the loop then waits less for input).
  bool delivering() const { return producer_->outq_len() > 0; }

 protected:
  absl::Status ProduceDelta(const std::string& key, const std::string& value,
                            int64_t event_unix_us) override;
  absl::Status ProduceDeltaBatch(DeltaBatchRecord&& batch) override;
  absl::Status ProduceLeaderboard(const std::string& key, const std::string& value) override;
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
  Metrics* metrics_;
  std::function<void()> while_waiting_;
};

}  // namespace ratingd
