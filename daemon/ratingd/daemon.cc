#include "daemon/ratingd/daemon.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/consumed_record.h"
#include "daemon/ratingd/log.h"

namespace ratingd {

// librdkafka's callbacks; all run on the consumer thread (inside consume() and poll()).
class Daemon::Callbacks : public RdKafka::RebalanceCb,
                          public RdKafka::DeliveryReportCb,
                          public RdKafka::EventCb {
 public:
  explicit Callbacks(Daemon* daemon) : daemon_(daemon) {}

  void rebalance_cb(RdKafka::KafkaConsumer* /*consumer: the daemon's own*/, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      daemon_->metrics_->Rebalance("assign").Increment();
      daemon_->OnAssign(partitions);
    } else {
      daemon_->metrics_->Rebalance(err == RdKafka::ERR__REVOKE_PARTITIONS ? "revoke" : "error")
          .Increment();
      daemon_->OnRevoke(partitions);
    }
  }

  void dr_cb(RdKafka::Message& message) override {
    // Only delta records carry an opaque (the event times): take it whatever the outcome.
    const std::unique_ptr<DeliveryOpaque> events = TakeDeliveryOpaque(message.msg_opaque());
    if (message.err() == RdKafka::ERR__PURGE_QUEUE ||
        message.err() == RdKafka::ERR__PURGE_INFLIGHT) {
      return;  // part of an aborted transaction: expected, the records are replayed
    }
    if (message.err() != RdKafka::ERR_NO_ERROR) {
      daemon_->metrics_->KafkaError(RdKafka::err2str(message.err())).Increment();
      Log(absl::StrCat("delivery to ", message.topic_name(), " failed: ", message.errstr()));
      return;
    }
    if (events == nullptr) return;
    const int64_t now_us = absl::ToUnixMicros(daemon_->clock_.Now());
    for (const int64_t event_us : *events) {
      if (event_us <= 0) continue;
      daemon_->metrics_->end_to_end_latency().Observe(static_cast<double>(now_us - event_us) / 1e6);
    }
  }

  void event_cb(RdKafka::Event& event) override {
    if (event.type() == RdKafka::Event::EVENT_ERROR) {
      daemon_->metrics_->KafkaError(RdKafka::err2str(event.err())).Increment();
      Log(absl::StrCat("kafka: ", RdKafka::err2str(event.err()), ": ", event.str()));
      if (event.fatal() && daemon_->pipeline_) {
        daemon_->pipeline_->Fail(
            absl::InternalError(absl::StrCat("fatal Kafka error: ", event.str())));
      }
    } else if (event.type() == RdKafka::Event::EVENT_LOG && event.severity() <= 4) {
      Log(absl::StrCat("kafka: ", event.fac(), ": ", event.str()));
    }
  }

 private:
  Daemon* daemon_;
};

Daemon::Daemon(const DaemonConfig& config, Metrics* metrics)
    : config_(config), metrics_(metrics), callbacks_(std::make_unique<Callbacks>(this)) {}

Daemon::~Daemon() {
  leaderboard_cache_.reset();  // publishes into the pipeline's view store
  pipeline_.reset();
}

RdKafka::RebalanceCb* Daemon::rebalance_cb() { return callbacks_.get(); }
RdKafka::EventCb* Daemon::event_cb() { return callbacks_.get(); }
RdKafka::DeliveryReportCb* Daemon::delivery_cb() { return callbacks_.get(); }

absl::Status Daemon::Run(const std::atomic<bool>& stop) {
  if (RdKafka::ErrorCode err = consumer_->subscribe({config_.results_topic});
      err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat("subscribe: ", RdKafka::err2str(err)));
  }
  Log(absl::StrCat("consuming ", config_.results_topic, " as group ", config_.group, " from ",
                   config_.brokers));
  pipeline_->Start();
  while (!stop.load() && pipeline_->fatal().ok()) {
    // A batch of records, then the housekeeping.
    // Wait briefly for the first record while deliveries are outstanding, so their
    // reports (end-to-end latency, errors) are not held back by an idle input.
    const int wait_ms = sink_->delivering() ? 1 : 20;
    bool idle = false;
    for (int i = 0; i < 1000 && !stop.load(); ++i) {
      std::unique_ptr<RdKafka::Message> message(consumer_->consume(i == 0 ? wait_ms : 0));
      if (message->err() == RdKafka::ERR__TIMED_OUT) {
        idle = true;
        break;
      }
      OnMessage(*message);
      if (i % 256 == 255) producer_->poll(0);
      if (pipeline_->CommitWanted()) break;
    }
    pipeline_->Tick(idle);
  }
  // Graceful shutdown (docs/CONTRACTS.md §4): the revocation in close() commits nothing more.
  absl::Status status = pipeline_->Drain();
  // After a fatal error nothing more is said to the group: the restart takes over.
  if (pipeline_->fatal().ok()) consumer_->close();
  return status;
}

void Daemon::OnMessage(RdKafka::Message& message) {
  switch (message.err()) {
    case RdKafka::ERR_NO_ERROR: {
      ConsumedRecord record;
      record.partition = message.partition();
      record.offset = message.offset();
      if (message.key_pointer() != nullptr) {
        record.key =
            absl::string_view(static_cast<const char*>(message.key_pointer()), message.key_len());
      }
      record.value = absl::string_view(static_cast<const char*>(message.payload()), message.len());
      record.timestamp_ms = message.timestamp().timestamp;
      if (message.timestamp().type == RdKafka::MessageTimestamp::MSG_TIMESTAMP_CREATE_TIME) {
        record.create_time_ms = message.timestamp().timestamp;
      }
      pipeline_->Process(record);
      return;
    }
    case RdKafka::ERR__TIMED_OUT:
    case RdKafka::ERR__PARTITION_EOF:
      return;
    default:
      metrics_->KafkaError(RdKafka::err2str(message.err())).Increment();
      Log(absl::StrCat("consume: ", message.errstr()));
      if (message.err() == RdKafka::ERR__FATAL) {
        pipeline_->Fail(
            absl::InternalError(absl::StrCat("fatal consumer error: ", message.errstr())));
      }
  }
}

void Daemon::OnAssign(std::vector<RdKafka::TopicPartition*>& partitions) {
  // Nothing of a partition is fetched before its state is restored: each is assigned
  // only once restored, starting at its snapshot's offset (docs/ARCHITECTURE.md §4).
  std::vector<int32_t> numbers;
  for (const RdKafka::TopicPartition* tp : partitions) numbers.push_back(tp->partition());
  const std::vector<PartitionOffset> starts = pipeline_->Assign(numbers);
  for (size_t i = 0; i < partitions.size() && i < starts.size(); ++i) {
    const int64_t next = starts[i].next_offset;
    partitions[i]->set_offset(next > 0 ? next : RdKafka::Topic::OFFSET_BEGINNING);
  }
  consumer_->assign(partitions);
}

void Daemon::OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions) {
  std::vector<int32_t> numbers;
  for (const RdKafka::TopicPartition* tp : partitions) numbers.push_back(tp->partition());
  pipeline_->Revoke(numbers);
  consumer_->unassign();
}

}  // namespace ratingd
