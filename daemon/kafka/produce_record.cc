#include "daemon/kafka/produce_record.h"

#include "absl/strings/str_cat.h"

namespace ratingd {

namespace {

// `value` null: no value (a tombstone).
absl::Status ProduceValue(RdKafka::Producer& producer, const std::string& topic,
                          const std::string& key, const std::string* value,
                          RdKafka::Headers* headers, void* opaque, int32_t partition) {
  while (true) {
    const RdKafka::ErrorCode err = producer.produce(
        topic, partition, RdKafka::Producer::RK_MSG_COPY,
        value == nullptr ? nullptr : const_cast<char*>(value->data()),
        value == nullptr ? 0 : value->size(), key.data(), key.size(), 0, headers, opaque);
    if (err == RdKafka::ERR_NO_ERROR) return absl::OkStatus();
    if (err == RdKafka::ERR__QUEUE_FULL) {
      producer.poll(10);
      continue;
    }
    delete headers;
    return absl::UnavailableError(
        absl::StrCat("producing to ", topic, ": ", RdKafka::err2str(err)));
  }
}

}  // namespace

absl::Status Produce(RdKafka::Producer& producer, const std::string& topic, const std::string& key,
                     const std::string& value, RdKafka::Headers* headers, void* opaque,
                     int32_t partition) {
  return ProduceValue(producer, topic, key, &value, headers, opaque, partition);
}

absl::Status ProduceTombstone(RdKafka::Producer& producer, const std::string& topic,
                              const std::string& key, int32_t partition) {
  return ProduceValue(producer, topic, key, nullptr, nullptr, nullptr, partition);
}

}  // namespace ratingd
