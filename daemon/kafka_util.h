// Small librdkafka helpers for ratingd and ratingctl: configuration with errors that say
// what to fix, topic creation through the C admin API (the C++ wrapper of librdkafka 2.0.2
// has none), and produce with back-pressure.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

using KafkaProperties = std::vector<std::pair<std::string, std::string>>;

// "key=value" items (a --kafka flag) and, if `file` is non-empty, a properties file
// (key=value lines, # comments). InvalidArgument naming the item or FILE:LINE.
absl::StatusOr<KafkaProperties> ParseKafkaProperties(const std::vector<std::string>& items,
                                                     const std::string& file);

// A global configuration with `properties` set in order; InvalidArgument naming the
// property librdkafka refused and why.
absl::StatusOr<std::unique_ptr<RdKafka::Conf>> MakeConf(const KafkaProperties& properties);

struct TopicSpec {
  std::string name;
  int partitions = -1;   // -1: the broker's default
  int replication = -1;  // -1: the broker's default
  KafkaProperties configs = {};
};

// Creates the topics that do not exist yet (existing ones are left as they are).
absl::Status EnsureTopics(RdKafka::Handle& handle, const std::vector<TopicSpec>& topics,
                          int timeout_ms);

// The number of partitions of an existing topic; NotFound if the broker does not know it.
absl::StatusOr<int> PartitionCount(RdKafka::Handle& handle, const std::string& topic,
                                   int timeout_ms);

// A dead letter's key is cut to this many bytes (header x-ratingd-key-truncated), so that
// its value always has room (DeadLetterValueBytes).
inline constexpr size_t kDeadLetterMaxKeyBytes = 1024;

// How many bytes of a dead letter's value fit, beside its key and headers, in a record of
// at most `max_record_bytes` (64 bytes kept for the record's own framing; 0 if even the
// key and headers do not fit).
size_t DeadLetterValueBytes(size_t value_bytes, const std::string& key,
                            const RdKafka::Headers& headers, size_t max_record_bytes);

// Produces one message, polling and retrying while the local queue is full. `headers`
// is adopted by librdkafka on success and deleted here on failure.
absl::Status Produce(RdKafka::Producer& producer, const std::string& topic, const std::string& key,
                     const std::string& value, RdKafka::Headers* headers, void* opaque,
                     int32_t partition = RdKafka::Topic::PARTITION_UA);

}  // namespace ratingd
