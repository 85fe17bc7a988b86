// `ratingctl produce` and `ratingctl tail` (docs/CONTRACTS.md §2.3): the topic tools' flags
// into their configs, then RunProduce or RunTail.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/time/time.h"
#include "daemon/kafka/client_config.h"
#include "daemon/ratingctl/command_line.h"
#include "daemon/ratingctl/commands.h"
#include "daemon/ratingctl/produce.h"
#include "daemon/ratingctl/tail.h"

ABSL_FLAG(std::string, brokers, "127.0.0.1:9092", "produce/tail: Kafka bootstrap servers");
ABSL_FLAG(std::string, topic, "", "produce/tail: the topic");
ABSL_FLAG(double, rate, 0, "produce: records per second (0: as fast as possible)");
ABSL_FLAG(std::string, event_time, "now",
          "produce: now (each record stamped as it is sent) or file (each keeps the file's "
          "event_time / tstamp; none if it has none)");
ABSL_FLAG(std::string, type, "",
          "tail: deltas, leaderboards, results or dlq (default: from the topic name)");
ABSL_FLAG(int64_t, count, 0,
          "tail: stop after this many documents, a delta batch counting its deltas (0: no limit)");
ABSL_FLAG(absl::Duration, idle_timeout, absl::InfiniteDuration(),
          "tail: stop after this long without a record");
ABSL_FLAG(bool, from_end, false, "tail: only records that arrive after the start");
ABSL_FLAG(bool, lag, false,
          "tail of deltas: print '<model> <ms>' per delta, its arrival minus its event time, "
          "instead of its document");

namespace ratingd {

int ProduceCommand(const std::vector<std::string>& kafka) {
  ProduceConfig config;
  config.brokers = absl::GetFlag(FLAGS_brokers);
  config.topic = absl::GetFlag(FLAGS_topic);
  config.input = absl::GetFlag(FLAGS_input);
  config.pool = absl::GetFlag(FLAGS_pool);
  config.rate = absl::GetFlag(FLAGS_rate);
  const std::string event_time = absl::GetFlag(FLAGS_event_time);
  if (event_time == "file") {
    config.event_time = ProduceConfig::EventTime::kFile;
  } else if (event_time != "now") {
    return Fail("produce: --event-time must be now or file, got '" + event_time + "'");
  }
  if (config.topic.empty()) return Fail("produce: --topic is required");
  if (config.input.empty()) return Fail("produce: --input FILE is required");
  if (absl::Status s = FormatFlag(config.format); !s.ok()) return Fail(std::string(s.message()));
  auto props = ParseKafkaProperties(kafka, "");
  if (!props.ok()) return Fail(std::string(props.status().message()));
  config.kafka = *props;
  absl::Status s = RunProduce(config);
  return s.ok() ? 0 : Fail(std::string(s.message()));
}

int TailCommand(const std::vector<std::string>& kafka) {
  TailConfig config;
  config.brokers = absl::GetFlag(FLAGS_brokers);
  config.topic = absl::GetFlag(FLAGS_topic);
  config.type = absl::GetFlag(FLAGS_type);
  config.count = absl::GetFlag(FLAGS_count);
  config.idle_timeout = absl::GetFlag(FLAGS_idle_timeout);
  config.from_end = absl::GetFlag(FLAGS_from_end);
  config.lag = absl::GetFlag(FLAGS_lag);
  if (config.topic.empty()) return Fail("tail: --topic is required");
  auto props = ParseKafkaProperties(kafka, "");
  if (!props.ok()) return Fail(std::string(props.status().message()));
  config.kafka = *props;
  absl::Status s = RunTail(config);
  return s.ok() ? 0 : Fail(std::string(s.message()));
}

}  // namespace ratingd
