#include "daemon/ratingctl/tail.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "daemon/deterministic_json.h"
#include "daemon/kafka/client_config.h"
#include "daemon/kafka/delta_format.h"
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

bool IsDeltaBatch(RdKafka::Message& m) {
  RdKafka::Headers* headers = m.headers();
  if (headers == nullptr) return false;
  const RdKafka::Headers::Header h = headers->get_last(kSchemaHeader);
  return h.err() == RdKafka::ERR_NO_ERROR && h.value() != nullptr &&
         absl::string_view(static_cast<const char*>(h.value()), h.value_size()) ==
             kDeltaBatchSchema;
}

// The deltas of a deltas-topic record, either format (docs/CONTRACTS.md §1.6).
absl::StatusOr<std::vector<v1::RankingDelta>> ParseDeltas(RdKafka::Message& m) {
  const char* data = static_cast<const char*>(m.payload());
  const int size = static_cast<int>(m.len());
  if (IsDeltaBatch(m)) {
    v1::RankingDeltaBatch batch;
    if (!batch.ParseFromArray(data, size)) return absl::DataLossError("not a RankingDeltaBatch");
    return std::vector<v1::RankingDelta>(batch.deltas().begin(), batch.deltas().end());
  }
  v1::RankingDelta d;
  if (!d.ParseFromArray(data, size)) return absl::DataLossError("not a RankingDelta");
  return std::vector<v1::RankingDelta>{std::move(d)};
}

// One line per delta: its JSON document, or with `lag` "<model> <milliseconds from its event
// time to now>".
absl::StatusOr<std::string> PrintDeltas(const std::vector<v1::RankingDelta>& deltas, bool lag) {
  std::string out;
  const int64_t now_us = absl::ToUnixMicros(absl::Now());
  for (const v1::RankingDelta& d : deltas) {
    if (!out.empty()) out.push_back('\n');
    if (lag) {
      const int64_t event_us =
          google::protobuf::util::TimeUtil::TimestampToMicroseconds(d.event_time());
      absl::StrAppend(&out, d.model(), " ", static_cast<double>(now_us - event_us) / 1e3);
      continue;
    }
    absl::StatusOr<std::string> json = DeterministicJson(d);
    if (!json.ok()) return json.status();
    absl::StrAppend(&out, *json);
  }
  return out;
}

// --type, or from the topic's name.
absl::StatusOr<std::string> TailType(const TailConfig& config) {
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
  return type;
}

// A read_committed consumer of its own group, subscribed to the topic.
absl::StatusOr<std::unique_ptr<RdKafka::KafkaConsumer>> TailConsumer(const TailConfig& config) {
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
  return consumer;
}

// A dead letter: its headers, key and value (base64).
absl::StatusOr<std::string> DeadLetterJson(RdKafka::Message& m) {
  google::protobuf::Struct s;
  auto& f = *s.mutable_fields();
  if (const RdKafka::Headers* headers = m.headers()) {
    for (const RdKafka::Headers::Header& h : headers->get_all()) {
      f[h.key()].set_string_value(
          h.value() ? std::string(static_cast<const char*>(h.value()), h.value_size()) : "");
    }
  }
  f["key"].set_string_value(m.key() ? *m.key() : "");
  f["value_base64"].set_string_value(
      absl::Base64Escape(absl::string_view(static_cast<const char*>(m.payload()), m.len())));
  return DeterministicJson(s);
}

// The record's JSON lines by `type`; a delta batch adds its deltas beyond the first to `seen`.
absl::StatusOr<std::string> RecordJson(const std::string& type, RdKafka::Message& m, bool lag,
                                       int64_t& seen) {
  const char* data = static_cast<const char*>(m.payload());
  const int size = static_cast<int>(m.len());
  if (type == "deltas") {
    // Either format: one document per delta (a version 2 batch counts its deltas).
    ASSIGN_OR_RETURN(const std::vector<v1::RankingDelta> deltas, ParseDeltas(m));
    seen += std::max<int64_t>(0, static_cast<int64_t>(deltas.size()) - 1);
    return PrintDeltas(deltas, lag);
  }
  if (type == "leaderboards") {
    v1::Leaderboard b;
    return b.ParseFromArray(data, size) ? DeterministicJson(b)
                                        : absl::DataLossError("not a Leaderboard");
  }
  if (type == "results") {
    v1::GameResult r;
    return r.ParseFromArray(data, size) ? DeterministicJson(r)
                                        : absl::DataLossError("not a GameResult");
  }
  return DeadLetterJson(m);
}

}  // namespace

absl::Status RunTail(const TailConfig& config) {
  ASSIGN_OR_RETURN(const std::string type, TailType(config));
  ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::KafkaConsumer> consumer, TailConsumer(config));
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
    const absl::StatusOr<std::string> json = RecordJson(type, *m, config.lag, seen);
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
