#include "daemon/ratingctl/produce.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/kafka/client_config.h"
#include "daemon/kafka/produce_record.h"
#include "daemon/pool_report.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/time_util.h"
#include "librdkafka/rdkafkacpp.h"
#include "ratingd/v1/delta.pb.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

class DeliveryCounter : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() != RdKafka::ERR_NO_ERROR) {
      ++failed;
      last_error = message.errstr();
    } else {
      ++delivered;
    }
  }
  int64_t delivered = 0;
  int64_t failed = 0;
  std::string last_error;
};

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file's records, read with generous limits: the daemon is the judge of validity
// (invalid records go to its DLQ).
absl::StatusOr<ratings::io::ReadOutput> ReadForProduce(const ProduceConfig& config) {
  ratings::io::Format format;
  if (config.format.has_value()) {
    format = *config.format;
  } else {
    ASSIGN_OR_RETURN(format, ratings::io::InferFormat(config.input));
  }
  ratings::ResultLimits limits;
  limits.max_standings = 1 << 20;
  limits.max_agent_id_bytes = 1 << 20;
  return ratings::io::ReadResultsFile(config.input, format, limits);
}

// An idempotent producer reporting its deliveries to `counter`.
absl::StatusOr<std::unique_ptr<RdKafka::Producer>> MakeProducer(const ProduceConfig& config,
                                                                DeliveryCounter* counter) {
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
                           {"client.id", "ratingctl-produce"},
                           {"enable.idempotence", "true"},
                           {"linger.ms", "5"}};
  props.insert(props.end(), config.kafka.begin(), config.kafka.end());
  ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Conf> conf, MakeConf(props));
  std::string error;
  conf->set("dr_cb", static_cast<RdKafka::DeliveryReportCb*>(counter), error);
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), error));
  if (!producer) return absl::InvalidArgumentError(absl::StrCat("Kafka producer: ", error));
  return producer;
}

}  // namespace

v1::GameResult ProducedMessage(const ratings::io::ResultRecord& record,
                               ProduceConfig::EventTime event_time, absl::Time now) {
  v1::GameResult message = ratings::io::ToProto(record);  // the record's own time, if any
  if (event_time == ProduceConfig::EventTime::kNow) {
    *message.mutable_event_time() =
        google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(now));
  }
  return message;
}

absl::Status RunProduce(const ProduceConfig& config) {
  ASSIGN_OR_RETURN(ratings::io::ReadOutput input, ReadForProduce(config));
  DeliveryCounter counter;
  ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Producer> producer, MakeProducer(config, &counter));

  const std::string base = BaseName(config.input);
  const absl::Time start = absl::Now();
  int64_t n = 0;
  for (ratings::io::ResultRecord& record : input.records) {
    if (record.pool.empty()) {
      if (config.pool.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            config.input, ": records have no pool (only JSONL carries one); name it with --pool"));
      }
      record.pool = config.pool;
    }
    if (record.game_id.empty()) record.game_id = absl::StrCat(base, "#", n + 1);
    const v1::GameResult message = ProducedMessage(record, config.event_time, absl::Now());
    RETURN_IF_ERROR(Produce(*producer, config.topic, record.pool, message.SerializeAsString(),
                            nullptr, nullptr));
    ++n;
    if (config.rate > 0) {
      const absl::Time due = start + absl::Seconds(static_cast<double>(n) / config.rate);
      while (absl::Now() < due) {
        producer->poll(0);
        absl::SleepFor(std::min(absl::Milliseconds(5), due - absl::Now()));
      }
    }
    producer->poll(0);
  }
  producer->flush(30000);
  if (counter.failed > 0 || counter.delivered < n) {
    return absl::UnavailableError(absl::StrCat(
        "delivered ", counter.delivered, " of ", n, " records to ", config.topic, " at ",
        config.brokers, counter.last_error.empty() ? "" : ": ", counter.last_error));
  }
  std::fprintf(stderr, "ratingctl: produced %lld records to %s in %.2f s\n",
               static_cast<long long>(n), config.topic.c_str(),
               absl::ToDoubleSeconds(absl::Now() - start));
  return absl::OkStatus();
}

}  // namespace ratingd
