// Dead letters: how much of a rejected record's value fits in the dead-letter topic's
// record size beside its key and headers (docs/CONTRACTS.md §1).
#pragma once

#include <cstddef>
#include <string>

#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

// A dead letter's key is cut to this many bytes (header x-ratingd-key-truncated), so that
// its value always has room (DeadLetterValueBytes).
inline constexpr size_t kDeadLetterMaxKeyBytes = 1024;

// How many bytes of a dead letter's value fit, beside its key and headers, in a record of
// at most `max_record_bytes` (64 bytes kept for the record's own framing; 0 if even the
// key and headers do not fit).
size_t DeadLetterValueBytes(size_t value_bytes, const std::string& key,
                            const RdKafka::Headers& headers, size_t max_record_bytes);

}  // namespace ratingd
