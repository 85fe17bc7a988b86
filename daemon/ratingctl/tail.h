// `ratingctl tail`: read ratingd's topics back as JSON lines.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace ratingd {

struct TailConfig {
  std::string brokers;
  std::string topic;
  std::string type = {};  // deltas | leaderboards | results | dlq; empty: from the topic name
  bool from_end = false;  // only records arriving after the start
  int64_t count = 0;      // stop after this many documents (0 = no limit)
  absl::Duration idle_timeout = absl::InfiniteDuration();  // stop after this long without one
  // deltas only: print "<model> <ms>" per delta, the time from its event time to its arrival
  // (what a read_committed reader waits for a result's change), instead of its document.
  bool lag = false;
  std::vector<std::pair<std::string, std::string>> kafka = {};
};

// Prints one JSON document per record on stdout (protobuf's JSON form; dlq records print
// their headers and the original bytes base64-encoded), until count, idle timeout or
// SIGINT/SIGTERM.
absl::Status RunTail(const TailConfig& config);

}  // namespace ratingd
