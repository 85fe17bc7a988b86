// `ratingctl produce`: put a results file on a topic, one GameResult per record.
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

}  // namespace ratingd
