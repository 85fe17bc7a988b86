// Topic administration through librdkafka's C admin API (the C++ wrapper of librdkafka
// 2.0.2 has none): create missing topics, count a topic's partitions.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "daemon/kafka/client_config.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

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

}  // namespace ratingd
