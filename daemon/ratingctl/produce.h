// `ratingctl produce`: put a results file on a topic, one GameResult per record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "ratingd/v1/game_result.pb.h"
#include "ratings/io/read_results.h"

namespace ratingd {

struct ProduceConfig {
  std::string brokers;
  std::string topic;
  std::string input;
  std::optional<ratings::io::Format> format = {};
  std::string pool = {};  // pool of records that have none (PrefLib, score tables)
  double rate = 0;        // records per second; 0 = as fast as possible
  // kNow: every record stamped with the time it is sent (what `tail --lag` measures);
  // kFile: each record keeps its own event time (JSONL event_time, battles tstamp), and a
  // record without one is sent without one (replaying history into glicko2).
  enum class EventTime { kNow, kFile };
  EventTime event_time = EventTime::kNow;
  std::vector<std::pair<std::string, std::string>> kafka = {};  // extra librdkafka properties
};

// The GameResult produced for `record` (pool and game id set) at time `now`.
v1::GameResult ProducedMessage(const ratings::io::ResultRecord& record,
                               ProduceConfig::EventTime event_time, absl::Time now);

// Reads the file and produces one GameResult per record, key = pool, event_time as
// config.event_time says. Records without a game id get "<file name>#<n>". Prints a summary
// on stderr. Errors name the file and line, or the Kafka problem.
absl::Status RunProduce(const ProduceConfig& config);

}  // namespace ratingd
