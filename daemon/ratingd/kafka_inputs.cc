#include "daemon/ratingd/kafka_inputs.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/snapshot_chunks.h"

namespace ratingd {

absl::StatusOr<int64_t> KafkaResultsInput::Committed(int32_t partition) {
  std::vector<RdKafka::TopicPartition*> tps = {
      RdKafka::TopicPartition::create(config_.results_topic, partition)};
  const RdKafka::ErrorCode err = consumer_->committed(tps, 10000);
  const int64_t committed = tps[0]->offset() >= 0 ? tps[0]->offset() : -1;
  RdKafka::TopicPartition::destroy(tps);
  if (err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat("committed offset: ", RdKafka::err2str(err)));
  }
  return committed;
}

absl::Status KafkaResultsInput::Seek(int32_t partition, int64_t offset) {
  std::unique_ptr<RdKafka::TopicPartition> tp(RdKafka::TopicPartition::create(
      config_.results_topic, partition, offset > 0 ? offset : RdKafka::Topic::OFFSET_BEGINNING));
  const RdKafka::ErrorCode err = consumer_->seek(*tp, 10000);
  if (err != RdKafka::ERR_NO_ERROR) return absl::UnavailableError(RdKafka::err2str(err));
  return absl::OkStatus();
}

std::optional<WatermarkOffsets> KafkaResultsInput::Watermarks(int32_t partition) {
  int64_t low = 0, high = 0;
  if (consumer_->get_watermark_offsets(config_.results_topic, partition, &low, &high) !=
          RdKafka::ERR_NO_ERROR ||
      high < 0) {
    return std::nullopt;
  }
  return WatermarkOffsets{low < 0 ? 0 : low, high};
}

absl::StatusOr<std::optional<v1::Snapshot>> KafkaSnapshotSource::Latest(int32_t partition) {
  const std::string& topic = config_.snapshots_topic;
  int64_t low = 0, high = 0;
  if (RdKafka::ErrorCode e = reader_->query_watermark_offsets(topic, partition, &low, &high, 10000);
      e != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat(topic, "/", partition, ": ", RdKafka::err2str(e)));
  }
  if (high <= low) return std::nullopt;
  std::vector<RdKafka::TopicPartition*> tps = {
      RdKafka::TopicPartition::create(topic, partition, RdKafka::Topic::OFFSET_BEGINNING)};
  reader_->assign(tps);
  RdKafka::TopicPartition::destroy(tps);
  SnapshotAssembler assembler(config_.group, config_.results_topic, partition);
  const absl::Time deadline = clock_->Now() + absl::Seconds(60);
  absl::Status status = absl::OkStatus();
  for (bool done = false; !done && status.ok();) {
    if (clock_->Now() > deadline) {
      status = absl::UnavailableError(
          absl::StrCat("reading ", topic, "/", partition, " took more than 60 s"));
      break;
    }
    std::unique_ptr<RdKafka::Message> m(reader_->consume(500));
    switch (m->err()) {
      case RdKafka::ERR_NO_ERROR: {
        const std::string where = absl::StrCat(topic, "/", partition, "@", m->offset());
        std::optional<absl::string_view> value;
        if (m->payload() != nullptr) {
          value = absl::string_view(static_cast<const char*>(m->payload()), m->len());
        }
        const std::string* key = m->key();
        absl::Status added = assembler.Add(key == nullptr ? "" : *key, value, where);
        if (absl::IsFailedPrecondition(added)) {
          status = added;
        } else if (!added.ok()) {
          Log(absl::StrCat("skipping: ", added.message()));
        }
        break;
      }
      case RdKafka::ERR__PARTITION_EOF:
        done = true;
        break;
      case RdKafka::ERR__TIMED_OUT:
        break;
      default:
        Log(absl::StrCat("reading ", topic, ": ", m->errstr()));
    }
  }
  reader_->unassign();
  if (!status.ok()) return status;
  return assembler.Latest();
}

}  // namespace ratingd
