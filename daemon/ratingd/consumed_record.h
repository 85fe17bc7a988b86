// One record read from the results topic, as the record path sees it: no Kafka types, so
// the path runs on records from a fake topic in unit tests. The views point into the
// consumer's message and are valid during one RecordProcessor::Process call.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace ratingd {

struct ConsumedRecord {
  int32_t partition = 0;
  int64_t offset = 0;
  std::optional<absl::string_view> key;  // nullopt: the record has no key
  absl::string_view value;
  // The producer's create time in Unix milliseconds, if the record carries one.
  std::optional<int64_t> create_time_ms;
  int64_t timestamp_ms = 0;  // the record's timestamp, whichever kind
};

}  // namespace ratingd
