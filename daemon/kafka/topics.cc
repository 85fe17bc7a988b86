#include "daemon/kafka/topics.h"

#include "absl/strings/str_cat.h"
#include "librdkafka/rdkafka.h"

namespace ratingd {

absl::Status EnsureTopics(RdKafka::Handle& handle, const std::vector<TopicSpec>& topics,
                          int timeout_ms) {
  rd_kafka_t* rk = handle.c_ptr();
  char error[512];
  std::vector<rd_kafka_NewTopic_t*> news;
  absl::Status status;
  for (const TopicSpec& t : topics) {
    rd_kafka_NewTopic_t* nt =
        rd_kafka_NewTopic_new(t.name.c_str(), t.partitions, t.replication, error, sizeof(error));
    if (nt == nullptr) {
      status = absl::InvalidArgumentError(absl::StrCat("topic ", t.name, ": ", error));
      break;
    }
    news.push_back(nt);
    for (const auto& [key, value] : t.configs) {
      if (rd_kafka_NewTopic_set_config(nt, key.c_str(), value.c_str()) !=
          RD_KAFKA_RESP_ERR_NO_ERROR) {
        status = absl::InvalidArgumentError(absl::StrCat("topic ", t.name, ": bad config ", key));
      }
    }
  }
  if (status.ok()) {
    rd_kafka_queue_t* queue = rd_kafka_queue_new(rk);
    rd_kafka_AdminOptions_t* options =
        rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS);
    rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, error, sizeof(error));
    rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, error, sizeof(error));
    rd_kafka_CreateTopics(rk, news.data(), news.size(), options, queue);
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, timeout_ms + 2000);
    if (event == nullptr) {
      status = absl::DeadlineExceededError("creating topics: no answer from the brokers");
    } else if (rd_kafka_event_error(event) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      status = absl::UnavailableError(
          absl::StrCat("creating topics: ", rd_kafka_event_error_string(event)));
    } else {
      size_t n = 0;
      const rd_kafka_topic_result_t** results =
          rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event), &n);
      for (size_t i = 0; i < n && status.ok(); ++i) {
        const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
          const char* why = rd_kafka_topic_result_error_string(results[i]);
          status = absl::UnavailableError(absl::StrCat("creating topic ",
                                                       rd_kafka_topic_result_name(results[i]), ": ",
                                                       why ? why : rd_kafka_err2str(err)));
        }
      }
    }
    if (event != nullptr) rd_kafka_event_destroy(event);
    rd_kafka_AdminOptions_destroy(options);
    rd_kafka_queue_destroy(queue);
  }
  rd_kafka_NewTopic_destroy_array(news.data(), news.size());
  return status;
}

absl::StatusOr<int> PartitionCount(RdKafka::Handle& handle, const std::string& topic,
                                   int timeout_ms) {
  std::string error;
  std::unique_ptr<RdKafka::Topic> t(RdKafka::Topic::create(&handle, topic, nullptr, error));
  if (!t) return absl::InvalidArgumentError(absl::StrCat("topic ", topic, ": ", error));
  RdKafka::Metadata* raw = nullptr;
  const RdKafka::ErrorCode err = handle.metadata(false, t.get(), &raw, timeout_ms);
  std::unique_ptr<RdKafka::Metadata> metadata(raw);
  if (err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(
        absl::StrCat("metadata of topic ", topic, ": ", RdKafka::err2str(err)));
  }
  for (const RdKafka::TopicMetadata* tm : *metadata->topics()) {
    if (tm->topic() == topic && tm->err() == RdKafka::ERR_NO_ERROR) {
      return static_cast<int>(tm->partitions()->size());
    }
  }
  return absl::NotFoundError(absl::StrCat("topic ", topic, " does not exist"));
}

}  // namespace ratingd
