#include "daemon/ratingd/kafka_output_sink.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "daemon/kafka/delta_format.h"
#include "daemon/kafka/produce_record.h"
#include "daemon/ratingd/log.h"

namespace ratingd {

std::unique_ptr<DeliveryOpaque> TakeDeliveryOpaque(void* opaque) {
  return std::unique_ptr<DeliveryOpaque>(static_cast<DeliveryOpaque*>(opaque));
}

int32_t OutputPartition(int32_t results_partition, int32_t count) {
  return count > 0 ? results_partition % count : results_partition;
}

absl::Status KafkaOutputSink::ProduceDelta(int32_t partition, const std::string& key,
                                           const std::string& value, int64_t event_unix_us) {
  auto opaque = std::make_unique<DeliveryOpaque>(1, event_unix_us);
  absl::Status s = Produce(*producer_, config_.deltas_topic, key, value, nullptr, opaque.get(),
                           OutputPartition(partition, counts_.deltas));
  if (s.ok()) opaque.release();  // the delivery report deletes it
  return s;
}

absl::Status KafkaOutputSink::ProduceDeltaBatch(DeltaBatchRecord&& batch) {
  RdKafka::Headers* headers = RdKafka::Headers::create();
  headers->add(kSchemaHeader, kDeltaBatchSchema);
  auto opaque = std::make_unique<DeliveryOpaque>(std::move(batch.event_unix_us));
  absl::Status s = Produce(*producer_, config_.deltas_topic, batch.key, batch.value, headers,
                           opaque.get(), OutputPartition(batch.partition, counts_.deltas));
  if (s.ok()) opaque.release();  // the delivery report deletes it
  return s;
}

absl::Status KafkaOutputSink::ProduceLeaderboard(int32_t partition, const std::string& key,
                                                 const std::string& value) {
  return Produce(*producer_, config_.leaderboards_topic, key, value, nullptr, nullptr,
                 OutputPartition(partition, counts_.leaderboards));
}

absl::Status KafkaOutputSink::ProduceDeadLetter(const DeadLetterRecord& letter) {
  RdKafka::Headers* headers = RdKafka::Headers::create();
  for (const auto& [name, value] : letter.headers) headers->add(name, value);
  return Produce(*producer_, config_.dlq_topic, letter.key, letter.value, headers, nullptr);
}

absl::Status KafkaOutputSink::ProduceSnapshotRecord(int32_t partition, const std::string& key,
                                                    const std::string* value) {
  if (value == nullptr)
    return ProduceTombstone(*producer_, config_.snapshots_topic, key, partition);
  return Produce(*producer_, config_.snapshots_topic, key, *value, nullptr, nullptr, partition);
}

absl::Status KafkaOutputSink::TxnCall(const char* what,
                                      const std::function<RdKafka::Error*()>& call) {
  for (int attempt = 1;; ++attempt) {
    std::unique_ptr<RdKafka::Error> error(call());
    if (!error) return absl::OkStatus();
    metrics_->KafkaError(error->name()).Increment();
    if (error->is_fatal()) {
      return absl::InternalError(absl::StrCat(what, ": fatal: ", error->str(),
                                              " (fenced by an instance with the same "
                                              "--transactional-id, or a broker error)"));
    }
    if (error->txn_requires_abort())
      return absl::AbortedError(absl::StrCat(what, ": ", error->str()));
    if (!error->is_retriable()) return absl::InternalError(absl::StrCat(what, ": ", error->str()));
    // Retriable (typically a timeout while the broker is away): try again, keep the
    // process observable meanwhile.
    if (attempt == 1 || attempt % 10 == 0) {
      Log(absl::StrCat(what, ": ", error->str(), " (attempt ", attempt, "; retrying)"));
    }
    producer_->poll(100);
    if (while_waiting_) while_waiting_();
  }
}

absl::Status KafkaOutputSink::BeginTransaction() {
  return TxnCall("begin_transaction", [this] { return producer_->begin_transaction(); });
}

absl::Status KafkaOutputSink::Commit(const std::vector<PartitionOffset>& offsets) {
  if (!offsets.empty()) {
    std::vector<RdKafka::TopicPartition*> tps;
    for (const PartitionOffset& o : offsets) {
      tps.push_back(
          RdKafka::TopicPartition::create(config_.results_topic, o.partition, o.next_offset));
    }
    std::unique_ptr<RdKafka::ConsumerGroupMetadata> group(consumer_->groupMetadata());
    absl::Status s = TxnCall("send_offsets_to_transaction", [&] {
      return producer_->send_offsets_to_transaction(tps, group.get(), 10000);
    });
    RdKafka::TopicPartition::destroy(tps);
    if (!s.ok()) return s;
  }
  return TxnCall("commit_transaction", [this] { return producer_->commit_transaction(10000); });
}

absl::Status KafkaOutputSink::Abort() {
  return TxnCall("abort_transaction", [this] { return producer_->abort_transaction(10000); });
}

bool KafkaOutputSink::Flush(absl::Duration timeout) {
  return producer_->flush(static_cast<int>(absl::ToInt64Milliseconds(timeout))) ==
         RdKafka::ERR_NO_ERROR;
}

void KafkaOutputSink::Poll(absl::Duration timeout) {
  producer_->poll(static_cast<int>(absl::ToInt64Milliseconds(timeout)));
}

}  // namespace ratingd
