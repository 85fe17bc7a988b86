// Dead letters (docs/CONTRACTS.md §1): a rejected record of the results topic, copied to the
// dead-letter topic with headers saying why, its key and value cut to fit the topic's record
// size. Kafka-free: the output sink turns a DeadLetterRecord into a Kafka record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace ratingd {

using RecordHeaders = std::vector<std::pair<std::string, std::string>>;

// A dead letter's key is cut to this many bytes (header x-ratingd-key-truncated), so that
// its value always has room (DeadLetterValueBytes).
inline constexpr size_t kDeadLetterMaxKeyBytes = 1024;

// How many bytes of a dead letter's value fit, beside its key and headers, in a record of
// at most `max_record_bytes` (64 bytes kept for the record's own framing; 0 if even the
// key and headers do not fit).
size_t DeadLetterValueBytes(size_t value_bytes, const std::string& key,
                            const RecordHeaders& headers, size_t max_record_bytes);

struct DeadLetterRecord {
  std::string key;
  std::string value;
  RecordHeaders headers;
};

// Where the rejected record came from.
struct RecordOrigin {
  absl::string_view topic;
  int32_t partition = 0;
  int64_t offset = 0;
};

// The dead letter of a rejected record: headers x-ratingd-reason (a bounded reason),
// x-ratingd-error (for people), x-src-topic/partition/offset, x-ratingd-version, and the
// truncation headers when the key or the value had to be cut to `max_record_bytes`.
DeadLetterRecord MakeDeadLetter(const RecordOrigin& origin, std::optional<absl::string_view> key,
                                absl::string_view value, const std::string& reason,
                                const std::string& why, absl::string_view version,
                                size_t max_record_bytes);

}  // namespace ratingd
