#include "daemon/kafka_commands.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "daemon/json_output.h"
#include "daemon/kafka_util.h"
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

std::atomic<bool> g_tail_stop{false};
extern "C" void OnTailSignal(int) { g_tail_stop = true; }

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

}  // namespace

absl::Status RunProduce(const ProduceConfig& config) {
  ratings::io::Format format;
  if (config.format.has_value()) {
    format = *config.format;
  } else {
    ASSIGN_OR_RETURN(format, ratings::io::InferFormat(config.input));
  }
  // Generous limits: the daemon is the judge of validity (invalid records go to its DLQ).
  ratings::ResultLimits limits;
  limits.max_standings = 1 << 20;
  limits.max_agent_id_bytes = 1 << 20;
  ASSIGN_OR_RETURN(ratings::io::ReadOutput input,
                   ratings::io::ReadResultsFile(config.input, format, limits));
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
                           {"client.id", "ratingctl-produce"},
                           {"enable.idempotence", "true"},
                           {"linger.ms", "5"}};
  props.insert(props.end(), config.kafka.begin(), config.kafka.end());
  ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Conf> conf, MakeConf(props));
  DeliveryCounter counter;
  std::string error;
  conf->set("dr_cb", static_cast<RdKafka::DeliveryReportCb*>(&counter), error);
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), error));
  if (!producer) return absl::InvalidArgumentError(absl::StrCat("Kafka producer: ", error));

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
    v1::GameResult message = ratings::io::ToProto(record);
    *message.mutable_event_time() =
        google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(absl::Now()));
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

absl::Status RunTail(const TailConfig& config) {
  std::string type = config.type;
  if (type.empty()) {
    type = absl::StrContains(config.topic, "leaderboard") ? "leaderboards"
           : absl::StrContains(config.topic, "dlq")       ? "dlq"
           : absl::StrContains(config.topic, "result")    ? "results"
                                                          : "deltas";
  }
  if (type != "deltas" && type != "leaderboards" && type != "results" && type != "dlq") {
    return absl::InvalidArgumentError(
        absl::StrCat("--type: '", type, "' is not deltas, leaderboards, results or dlq"));
  }
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
                           {"group.id", absl::StrCat("ratingctl-tail-", ::getpid(), "-",
                                                     absl::ToUnixNanos(absl::Now()))},
                           {"client.id", "ratingctl-tail"},
                           {"enable.auto.commit", "false"},
                           {"auto.offset.reset", config.from_end ? "latest" : "earliest"},
                           {"isolation.level", "read_committed"},
                           {"partition.assignment.strategy", "range"}};
  props.insert(props.end(), config.kafka.begin(), config.kafka.end());
  ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Conf> conf, MakeConf(props));
  std::string error;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(
      RdKafka::KafkaConsumer::create(conf.get(), error));
  if (!consumer) return absl::InvalidArgumentError(absl::StrCat("Kafka consumer: ", error));
  if (RdKafka::ErrorCode err = consumer->subscribe({config.topic}); err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat("subscribe: ", RdKafka::err2str(err)));
  }
  std::signal(SIGINT, OnTailSignal);
  std::signal(SIGTERM, OnTailSignal);
  int64_t seen = 0;
  absl::Time last = absl::Now();
  absl::Status status;
  while (!g_tail_stop.load() && (config.count == 0 || seen < config.count)) {
    std::unique_ptr<RdKafka::Message> m(consumer->consume(100));
    if (m->err() == RdKafka::ERR__TIMED_OUT || m->err() == RdKafka::ERR__PARTITION_EOF) {
      if (absl::Now() - last > config.idle_timeout) break;
      continue;
    }
    if (m->err() != RdKafka::ERR_NO_ERROR) {
      std::fprintf(stderr, "ratingctl: tail: %s\n", m->errstr().c_str());
      if (m->err() == RdKafka::ERR_UNKNOWN_TOPIC_OR_PART ||
          m->err() == RdKafka::ERR_TOPIC_AUTHORIZATION_FAILED) {
        status = absl::NotFoundError(absl::StrCat(config.topic, ": ", m->errstr()));
        break;
      }
      continue;
    }
    last = absl::Now();
    ++seen;
    const char* data = static_cast<const char*>(m->payload());
    const int size = static_cast<int>(m->len());
    absl::StatusOr<std::string> json;
    if (type == "deltas") {
      v1::RankingDelta d;
      json = d.ParseFromArray(data, size) ? DeterministicJson(d)
                                          : absl::DataLossError("not a RankingDelta");
    } else if (type == "leaderboards") {
      v1::Leaderboard b;
      json = b.ParseFromArray(data, size) ? DeterministicJson(b)
                                          : absl::DataLossError("not a Leaderboard");
    } else if (type == "results") {
      v1::GameResult r;
      json = r.ParseFromArray(data, size) ? DeterministicJson(r)
                                          : absl::DataLossError("not a GameResult");
    } else {
      google::protobuf::Struct s;
      auto& f = *s.mutable_fields();
      if (const RdKafka::Headers* headers = m->headers()) {
        for (const RdKafka::Headers::Header& h : headers->get_all()) {
          f[h.key()].set_string_value(
              h.value() ? std::string(static_cast<const char*>(h.value()), h.value_size()) : "");
        }
      }
      f["key"].set_string_value(m->key() ? *m->key() : "");
      f["value_base64"].set_string_value(absl::Base64Escape(absl::string_view(data, m->len())));
      json = DeterministicJson(s);
    }
    if (json.ok()) {
      std::printf("%s\n", json->c_str());
    } else {
      std::printf("{\"offset\": %lld, \"error\": \"%s\"}\n", static_cast<long long>(m->offset()),
                  std::string(json.status().message()).c_str());
    }
    std::fflush(stdout);
  }
  consumer->close();
  return status;
}

}  // namespace ratingd
