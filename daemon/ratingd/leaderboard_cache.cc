#include "daemon/ratingd/leaderboard_cache.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/kafka/client_config.h"
#include "daemon/kafka/topics.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/remote_boards.h"

namespace ratingd {
namespace {

KafkaProperties CacheProperties(const DaemonConfig& config) {
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
                           {"group.id", absl::StrCat(config.group, ".leaderboard-cache")},
                           {"client.id", "ratingd-leaderboard-cache"},
                           {"enable.auto.commit", "false"},
                           {"isolation.level", "read_committed"},
                           {"fetch.wait.max.ms", "100"},
                           {"enable.partition.eof", "true"}};
  for (const auto& kv : config.kafka) {
    if (kv.first != "group.instance.id") props.push_back(kv);
  }
  return props;
}

}  // namespace

absl::StatusOr<std::unique_ptr<LeaderboardCache>> LeaderboardCache::Start(
    const DaemonConfig& config, ViewStore* views) {
  absl::StatusOr<std::unique_ptr<RdKafka::Conf>> conf = MakeConf(CacheProperties(config));
  if (!conf.ok()) return conf.status();
  std::string error;
  std::unique_ptr<LeaderboardCache> cache(new LeaderboardCache());
  cache->consumer_.reset(RdKafka::KafkaConsumer::create(conf->get(), error));
  if (!cache->consumer_) {
    return absl::InvalidArgumentError(absl::StrCat("Kafka leaderboard cache: ", error));
  }
  absl::StatusOr<int> partitions =
      PartitionCount(*cache->consumer_, config.leaderboards_topic, 15000);
  if (!partitions.ok()) return partitions.status();
  std::vector<RdKafka::TopicPartition*> assignment;
  for (int p = 0; p < *partitions; ++p) {
    assignment.push_back(RdKafka::TopicPartition::create(config.leaderboards_topic, p,
                                                         RdKafka::Topic::OFFSET_BEGINNING));
  }
  const RdKafka::ErrorCode assigned = cache->consumer_->assign(assignment);
  RdKafka::TopicPartition::destroy(assignment);
  if (assigned != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(
        absl::StrCat("assigning ", config.leaderboards_topic, ": ", RdKafka::err2str(assigned)));
  }
  cache->views_ = views;
  cache->partitions_ = *partitions;
  views->set_remote_caught_up(false);
  cache->thread_ = std::thread([raw = cache.get()] { raw->Run(); });
  return cache;
}

LeaderboardCache::~LeaderboardCache() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (consumer_) consumer_->close();
}

void LeaderboardCache::Run() {
  RemoteBoardsBuilder boards;
  auto next_publish = std::chrono::steady_clock::now();
  // Partitions not yet read to their end once; at zero the boards are published at once
  // and the instance may be ready (ViewStore::remote_caught_up).
  std::vector<bool> at_end(static_cast<size_t>(partitions_), false);
  int behind = partitions_;
  if (behind == 0) views_->set_remote_caught_up(true);
  while (!stop_.load()) {
    std::unique_ptr<RdKafka::Message> m(consumer_->consume(50));
    bool caught_up_now = false;
    if (m->err() == RdKafka::ERR__PARTITION_EOF && behind > 0 && m->partition() >= 0 &&
        m->partition() < partitions_ && !at_end[static_cast<size_t>(m->partition())]) {
      at_end[static_cast<size_t>(m->partition())] = true;
      caught_up_now = --behind == 0;
    }
    if (m->err() == RdKafka::ERR_NO_ERROR) {
      std::optional<absl::string_view> value;
      if (m->payload() != nullptr) {
        value = absl::string_view(static_cast<const char*>(m->payload()), m->len());
      }
      const std::string* key = m->key();
      if (absl::Status s = boards.Add(m->partition(), key == nullptr ? "" : *key, value); !s.ok()) {
        Log(absl::StrCat("leaderboard cache: skipping ", m->topic_name(), "/", m->partition(), "@",
                         m->offset(), ": ", s.message()));
      }
    } else if (m->err() != RdKafka::ERR__TIMED_OUT && m->err() != RdKafka::ERR__PARTITION_EOF) {
      Log(absl::StrCat("leaderboard cache: ", m->errstr()));
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_publish || caught_up_now) {
      if (std::shared_ptr<const RemoteBoards> changed = boards.TakeChanged()) {
        views_->PublishRemote(std::move(changed));
      }
      next_publish = now + absl::ToChronoNanoseconds(kPublishEvery);
    }
    if (caught_up_now) views_->set_remote_caught_up(true);
  }
}

}  // namespace ratingd
