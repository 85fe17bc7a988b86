// `ratingctl produce` and `ratingctl tail` (issue 4): put a results file on a topic, and
// read ratingd's topics back as JSON lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "ratings/io/read_results.h"

namespace ratingd {

struct ProduceConfig {
  std::string brokers;
  std::string topic;
  std::string input;
  std::optional<ratings::io::Format> format = {};
  std::string pool = {};  // pool of records that have none (PrefLib, score tables)
  double rate = 0;        // records per second; 0 = as fast as possible
  std::vector<std::pair<std::string, std::string>> kafka = {};  // extra librdkafka properties
};

// Reads the file and produces one GameResult per record, key = pool, event_time = the
// time of sending. Records without a game id get "<file name>#<n>". Prints a summary on
// stderr. Errors name the file and line, or the Kafka problem.
absl::Status RunProduce(const ProduceConfig& config);

struct TailConfig {
  std::string brokers;
  std::string topic;
  std::string type = {};  // deltas | leaderboards | results | dlq; empty: from the topic name
  bool from_end = false;  // only records arriving after the start
  int64_t count = 0;      // stop after this many records (0 = no limit)
  absl::Duration idle_timeout = absl::InfiniteDuration();  // stop after this long without one
  std::vector<std::pair<std::string, std::string>> kafka = {};
};

// Prints one JSON document per record on stdout (protobuf's JSON form; dlq records print
// their headers and the original bytes base64-encoded), until count, idle timeout or
// SIGINT/SIGTERM.
absl::Status RunTail(const TailConfig& config);

}  // namespace ratingd
