// Sending one record with back-pressure: librdkafka's local queue being full is waited
// out, any other error is returned.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

// Produces one message, polling and retrying while the local queue is full. `headers`
// is adopted by librdkafka on success and deleted here on failure.
absl::Status Produce(RdKafka::Producer& producer, const std::string& topic, const std::string& key,
                     const std::string& value, RdKafka::Headers* headers, void* opaque,
                     int32_t partition = RdKafka::Topic::PARTITION_UA);
// A record with a key and no value: a tombstone, which a compacted topic deletes the key by.
absl::Status ProduceTombstone(RdKafka::Producer& producer, const std::string& topic,
                              const std::string& key, int32_t partition);

}  // namespace ratingd
