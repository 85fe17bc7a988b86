// Daemon: configuration checks and the creation of the Kafka clients and topics (the
// transactional producer, the group consumer and the snapshot reader).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/kafka/topics.h"
#include "daemon/ratingd/daemon.h"
#include "daemon/ratingd/log.h"

namespace ratingd {
namespace {

absl::Status MakeDirs(const std::string& dir) {
  std::string path;
  for (size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || (dir[i] == '/' && i > 0)) {
      path = dir.substr(0, i);
      if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
        return absl::InvalidArgumentError(
            absl::StrCat("--snapshot-dir: cannot create ", path, ": ", std::strerror(errno)));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateDaemonConfig(const DaemonConfig& config) {
  if (config.brokers.empty()) return absl::InvalidArgumentError("--brokers is empty");
  if (config.group.empty()) return absl::InvalidArgumentError("--group is empty");
  for (const auto& [flag, topic] : {std::pair("--results-topic", config.results_topic),
                                    {"--deltas-topic", config.deltas_topic},
                                    {"--leaderboards-topic", config.leaderboards_topic},
                                    {"--dlq-topic", config.dlq_topic},
                                    {"--snapshots-topic", config.snapshots_topic}}) {
    if (topic.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, " is empty"));
  }
  if (config.snapshot_dir.empty()) {
    return absl::InvalidArgumentError("--snapshot-dir is required (where state survives restarts)");
  }
  if (config.snapshot_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--snapshot-interval must be > 0");
  }
  if (config.commit_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--commit-interval must be > 0");
  }
  if (config.dlq_max_bytes < 4096 || config.dlq_max_bytes > 16777216) {
    return absl::InvalidArgumentError(absl::StrCat("--dlq-max-bytes=", config.dlq_max_bytes,
                                                   " is out of range [4096, 16777216]"));
  }
  if (auto s = MakeDirs(config.snapshot_dir); !s.ok()) return s;
  // Fails early, naming the problem, if a parameter is out of range.
  if (auto pool = ratings::Pool::Create(config.pool.options); !pool.ok()) return pool.status();

  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Daemon>> Daemon::Create(const DaemonConfig& config,
                                                       Metrics* metrics) {
  if (absl::Status s = ValidateDaemonConfig(config); !s.ok()) return s;
  std::unique_ptr<Daemon> d(new Daemon(config, metrics));
  KafkaProperties consumer_props = {{"bootstrap.servers", config.brokers},
                                    {"group.id", config.group},
                                    {"client.id", "ratingd"},
                                    {"enable.auto.commit", "false"},
                                    {"enable.auto.offset.store", "false"},
                                    {"auto.offset.reset", "earliest"},
                                    {"isolation.level", "read_committed"},
                                    // librdkafka 2.0.2: eager assignor (docs/ARCHITECTURE.md §7)
                                    {"partition.assignment.strategy", "range"},
                                    // Latency (docs/BENCHMARKS.md, end to end): the default 500 ms
                                    // fetch wait put the p99 at ~180 ms; 5 ms gives ~10 ms.
                                    {"fetch.wait.max.ms", "5"}};
  std::string transactional_id = config.transactional_id;
  if (transactional_id.empty()) {
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    transactional_id =
        absl::StrCat("ratingd-", config.instance_id.empty() ? host : config.instance_id);
  }
  // Transactional (docs/ARCHITECTURE.md §4): idempotence is implied; a transaction open longer
  // than the timeout (a broker outage) is aborted by the coordinator and rolled back here.
  // The timeout is also how long read_committed readers wait behind the open transaction
  // of an instance that died and is not restarted (a restart aborts it at once): 10 s.
  KafkaProperties producer_props = {{"bootstrap.servers", config.brokers},
                                    {"client.id", "ratingd"},
                                    {"transactional.id", transactional_id},
                                    {"transaction.timeout.ms", "10000"},
                                    {"linger.ms", "1"},
                                    {"compression.type", "lz4"},
                                    {"message.max.bytes", "16777216"}};
  // Reads the snapshots topic on assignment; never joins the group nor commits.
  KafkaProperties reader_props = {{"bootstrap.servers", config.brokers},
                                  {"group.id", absl::StrCat(config.group, ".snapshot-reader")},
                                  {"client.id", "ratingd-snapshot-reader"},
                                  {"enable.auto.commit", "false"},
                                  {"enable.partition.eof", "true"},
                                  {"isolation.level", "read_committed"}};
  if (!config.instance_id.empty()) {
    consumer_props.push_back({"group.instance.id", config.instance_id});
  }
  for (const auto& kv : config.kafka) {
    consumer_props.push_back(kv);
    producer_props.push_back(kv);
    if (kv.first != "group.instance.id") reader_props.push_back(kv);
  }
  std::string error;
  {
    auto conf = MakeConf(consumer_props);
    if (!conf.ok()) return conf.status();
    (*conf)->set("rebalance_cb", d->rebalance_cb(), error);
    (*conf)->set("event_cb", d->event_cb(), error);
    d->consumer_.reset(RdKafka::KafkaConsumer::create(conf->get(), error));
    if (!d->consumer_) return absl::InvalidArgumentError(absl::StrCat("Kafka consumer: ", error));
  }
  {
    auto conf = MakeConf(producer_props);
    if (!conf.ok()) return conf.status();
    (*conf)->set("dr_cb", d->delivery_cb(), error);
    (*conf)->set("event_cb", d->event_cb(), error);
    d->producer_.reset(RdKafka::Producer::create(conf->get(), error));
    if (!d->producer_) return absl::InvalidArgumentError(absl::StrCat("Kafka producer: ", error));
  }
  {
    auto conf = MakeConf(reader_props);
    if (!conf.ok()) return conf.status();
    d->snapshot_reader_.reset(RdKafka::KafkaConsumer::create(conf->get(), error));
    if (!d->snapshot_reader_) {
      return absl::InvalidArgumentError(absl::StrCat("Kafka snapshot reader: ", error));
    }
  }
  const int p = config.topic_partitions, r = config.topic_replication;
  absl::Status topics =
      EnsureTopics(*d->producer_,
                   {{config.results_topic, p, r},
                    {config.deltas_topic, p, r},
                    {config.leaderboards_topic,
                     p,
                     r,
                     {{"cleanup.policy", "compact"}, {"max.message.bytes", "16777216"}}},
                    {config.dlq_topic, p, r}},
                   15000);
  if (!topics.ok()) {
    return absl::UnavailableError(absl::StrCat(
        topics.message(), " (are the brokers at --brokers=", config.brokers, " reachable?)"));
  }
  // The snapshot of results partition p goes to snapshots partition p.
  // A topic just created may take a moment to appear in the metadata.
  absl::StatusOr<int> results_partitions =
      PartitionCount(*d->producer_, config.results_topic, 15000);
  for (int i = 0; i < 50 && absl::IsNotFound(results_partitions.status()); ++i) {
    absl::SleepFor(absl::Milliseconds(200));
    results_partitions = PartitionCount(*d->producer_, config.results_topic, 15000);
  }
  if (!results_partitions.ok()) return results_partitions.status();
  topics = EnsureTopics(*d->producer_,
                        {{config.snapshots_topic,
                          *results_partitions,
                          r,
                          {{"cleanup.policy", "compact"}, {"max.message.bytes", "1048576"}}}},
                        15000);
  if (!topics.ok()) return absl::UnavailableError(topics.message());
  absl::StatusOr<int> snapshot_partitions =
      PartitionCount(*d->producer_, config.snapshots_topic, 15000);
  for (int i = 0; i < 50 && absl::IsNotFound(snapshot_partitions.status()); ++i) {
    absl::SleepFor(absl::Milliseconds(200));
    snapshot_partitions = PartitionCount(*d->producer_, config.snapshots_topic, 15000);
  }
  if (!snapshot_partitions.ok()) return snapshot_partitions.status();
  if (*snapshot_partitions < *results_partitions) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--snapshots-topic=", config.snapshots_topic, " has ", *snapshot_partitions,
        " partitions, fewer than the ", *results_partitions, " of ", config.results_topic,
        "; give it at least as many (kafka-topics --alter --partitions)"));
  }
  // Fences an earlier incarnation with the same transactional.id and aborts its open
  // transaction, so read_committed readers do not wait for its timeout.
  std::unique_ptr<RdKafka::Error> init(d->producer_->init_transactions(30000));
  if (init) {
    return absl::UnavailableError(
        absl::StrCat("init_transactions (transactional.id ", transactional_id, "): ", init->str()));
  }
  Log(absl::StrCat("transactional.id ", transactional_id));
  return d;
}

}  // namespace ratingd
