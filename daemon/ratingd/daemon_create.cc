// Daemon: the creation of the Kafka clients (the transactional producer, the group consumer
// and the snapshot reader) and of the topics.
#include <unistd.h>

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "daemon/kafka/client_config.h"
#include "daemon/kafka/topics.h"
#include "daemon/ratingd/daemon.h"
#include "daemon/ratingd/log.h"

namespace ratingd {
namespace {

KafkaProperties ConsumerProperties(const DaemonConfig& config) {
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
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
                           {"fetch.wait.max.ms", "5"},
                           // Throughput (docs/BENCHMARKS.md): with the default 100,000 the
                           // prefetch ran dry under a backlog and the loop waited for fetches
                           // (~100k results/s); memory stays bounded by
                           // queued.max.messages.kbytes (64 MB).
                           {"queued.min.messages", "1000000"}};
  if (!config.instance_id.empty()) props.push_back({"group.instance.id", config.instance_id});
  for (const auto& kv : config.kafka) props.push_back(kv);
  return props;
}

std::string TransactionalId(const DaemonConfig& config) {
  if (!config.transactional_id.empty()) return config.transactional_id;
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  return absl::StrCat("ratingd-", config.instance_id.empty() ? host : config.instance_id);
}

// Transactional (docs/ARCHITECTURE.md §4): idempotence is implied; a transaction open longer
// than the timeout (a broker outage) is aborted by the coordinator and rolled back here.
// The timeout is also how long read_committed readers wait behind the open transaction
// of an instance that died and is not restarted (a restart aborts it at once): 10 s.
KafkaProperties ProducerProperties(const DaemonConfig& config) {
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
                           {"client.id", "ratingd"},
                           {"transactional.id", TransactionalId(config)},
                           {"transaction.timeout.ms", "10000"},
                           {"linger.ms", "1"},
                           {"compression.type", "lz4"},
                           {"message.max.bytes", "16777216"}};
  for (const auto& kv : config.kafka) props.push_back(kv);
  return props;
}

// Reads the snapshots topic on assignment; never joins the group nor commits.
KafkaProperties ReaderProperties(const DaemonConfig& config) {
  KafkaProperties props = {{"bootstrap.servers", config.brokers},
                           {"group.id", absl::StrCat(config.group, ".snapshot-reader")},
                           {"client.id", "ratingd-snapshot-reader"},
                           {"enable.auto.commit", "false"},
                           {"enable.partition.eof", "true"},
                           {"isolation.level", "read_committed"},
                           // Restart time (docs/BENCHMARKS.md): with the default 500 ms each
                           // restore waited ~1 s for the fetches that reach the end.
                           {"fetch.wait.max.ms", "5"}};
  for (const auto& kv : config.kafka) {
    if (kv.first != "group.instance.id") props.push_back(kv);
  }
  return props;
}

// The compacted topics are read from their start (a restore, the leaderboard cache), and
// compaction never touches a partition's active segment, which by Kafka's defaults rolls at
// 1 GiB or after 7 days: until then every snapshot ever written was read again at each
// restore (docs/ARCHITECTURE.md §5.2). Rolled each minute or at a few times the largest
// record (Kafka refuses a batch larger than a segment), a partition keeps about the live
// snapshot and the last segment's.
constexpr char kCompactedSegmentMs[] = "60000";
constexpr char kSnapshotsSegmentBytes[] = "8388608";      // 4 x its max.message.bytes
constexpr char kLeaderboardsSegmentBytes[] = "33554432";  // 2 x its max.message.bytes

// A topic just created may take a moment to appear in the metadata.
absl::StatusOr<int> WaitForPartitionCount(RdKafka::Producer& producer, const std::string& topic) {
  absl::StatusOr<int> count = PartitionCount(producer, topic, 15000);
  for (int i = 0; i < 50 && absl::IsNotFound(count.status()); ++i) {
    absl::SleepFor(absl::Milliseconds(200));
    count = PartitionCount(producer, topic, 15000);
  }
  return count;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Daemon>> Daemon::Create(const DaemonConfig& config,
                                                       Metrics* metrics) {
  if (absl::Status s = ValidateDaemonConfig(config); !s.ok()) return s;
  std::unique_ptr<Daemon> d(new Daemon(config, metrics));
  if (absl::Status s = d->CreateClients(); !s.ok()) return s;
  if (absl::Status s = d->CreateTopics(); !s.ok()) return s;
  if (absl::Status s = d->InitTransactions(); !s.ok()) return s;
  if (absl::Status s = d->WarmOutputTopics(); !s.ok()) return s;
  Log(absl::StrCat("transactional.id ", TransactionalId(config)));
  Daemon* raw = d.get();
  d->sink_ = std::make_unique<KafkaOutputSink>(d->config_, d->producer_.get(), d->consumer_.get(),
                                               d->output_partitions_, metrics,
                                               [raw] { raw->pipeline_->KeepObservable(); });
  d->input_ = std::make_unique<KafkaResultsInput>(d->config_, d->consumer_.get());
  d->snapshots_ =
      std::make_unique<KafkaSnapshotSource>(d->config_, d->snapshot_reader_.get(), &d->clock_);
  d->pipeline_ = std::make_unique<Pipeline>(d->config_, d->sink_.get(), d->input_.get(),
                                            d->snapshots_.get(), metrics, &d->clock_);
  absl::StatusOr<std::unique_ptr<LeaderboardCache>> cache =
      LeaderboardCache::Start(d->config_, &d->pipeline_->views());
  if (!cache.ok()) return cache.status();
  d->leaderboard_cache_ = *std::move(cache);
  return d;
}

absl::Status Daemon::CreateClients() {
  std::string error;
  absl::StatusOr<std::unique_ptr<RdKafka::Conf>> conf = MakeConf(ConsumerProperties(config_));
  if (!conf.ok()) return conf.status();
  (*conf)->set("rebalance_cb", rebalance_cb(), error);
  (*conf)->set("event_cb", event_cb(), error);
  consumer_.reset(RdKafka::KafkaConsumer::create(conf->get(), error));
  if (!consumer_) return absl::InvalidArgumentError(absl::StrCat("Kafka consumer: ", error));

  if (absl::Status s = CreateProducer(); !s.ok()) return s;

  conf = MakeConf(ReaderProperties(config_));
  if (!conf.ok()) return conf.status();
  snapshot_reader_.reset(RdKafka::KafkaConsumer::create(conf->get(), error));
  if (!snapshot_reader_) {
    return absl::InvalidArgumentError(absl::StrCat("Kafka snapshot reader: ", error));
  }
  return absl::OkStatus();
}

absl::Status Daemon::CreateProducer() {
  std::string error;
  absl::StatusOr<std::unique_ptr<RdKafka::Conf>> conf = MakeConf(ProducerProperties(config_));
  if (!conf.ok()) return conf.status();
  (*conf)->set("dr_cb", delivery_cb(), error);
  (*conf)->set("event_cb", event_cb(), error);
  producer_.reset(RdKafka::Producer::create(conf->get(), error));
  if (!producer_) return absl::InvalidArgumentError(absl::StrCat("Kafka producer: ", error));
  return absl::OkStatus();
}

absl::Status Daemon::InitTransactions() {
  // Fences an earlier incarnation with the same transactional.id and aborts its open
  // transaction, so read_committed readers do not wait for its timeout. While the coordinator
  // completes that transaction (milliseconds), it answers CONCURRENT_TRANSACTIONS, and
  // librdkafka 2.0.2 asks again only after a fixed 500 ms, a timer no setting changes: half a
  // second of every restart that lands then (docs/BENCHMARKS.md §8). So the first tries are
  // short, and a try that runs out gives way to a new producer, whose first request goes out
  // at once.
  std::unique_ptr<RdKafka::Error> error;
  for (int quick = 0; quick < kQuickInitTries; ++quick) {
    error.reset(producer_->init_transactions(kQuickInitMs));
    // A try that runs out reports the coordinator's last answer, as a retriable error.
    if (error == nullptr || !error->is_retriable()) break;
    Log(absl::StrCat("init_transactions: no producer id within ", kQuickInitMs, " ms (",
                     error->str(), "); asking again with a new producer"));
    producer_.reset();
    if (absl::Status s = CreateProducer(); !s.ok()) return s;
  }
  if (error != nullptr && error->is_retriable()) {
    error.reset(producer_->init_transactions(30000));
  }
  if (error != nullptr) {
    return absl::UnavailableError(absl::StrCat("init_transactions (transactional.id ",
                                               TransactionalId(config_), "): ", error->str()));
  }
  return absl::OkStatus();
}

absl::Status Daemon::CreateTopics() {
  const DaemonConfig& c = config_;
  const int p = c.topic_partitions, r = c.topic_replication;
  absl::Status topics = EnsureTopics(*producer_,
                                     {{c.results_topic, p, r},
                                      {c.deltas_topic, p, r},
                                      {c.leaderboards_topic,
                                       p,
                                       r,
                                       {{"cleanup.policy", "compact"},
                                        {"max.message.bytes", "16777216"},
                                        {"segment.ms", kCompactedSegmentMs},
                                        {"segment.bytes", kLeaderboardsSegmentBytes}}},
                                      {c.dlq_topic, p, r}},
                                     15000);
  if (!topics.ok()) {
    return absl::UnavailableError(absl::StrCat(
        topics.message(), " (are the brokers at --brokers=", c.brokers, " reachable?)"));
  }
  // The snapshot of results partition p goes to snapshots partition p.
  absl::StatusOr<int> results_partitions = WaitForPartitionCount(*producer_, c.results_topic);
  if (!results_partitions.ok()) return results_partitions.status();
  topics = EnsureTopics(*producer_,
                        {{c.snapshots_topic,
                          *results_partitions,
                          r,
                          {{"cleanup.policy", "compact"},
                           {"max.message.bytes", "2097152"},
                           {"segment.ms", kCompactedSegmentMs},
                           {"segment.bytes", kSnapshotsSegmentBytes}}}},
                        15000);
  if (!topics.ok()) return absl::UnavailableError(topics.message());
  absl::StatusOr<int> snapshot_partitions = WaitForPartitionCount(*producer_, c.snapshots_topic);
  if (!snapshot_partitions.ok()) return snapshot_partitions.status();
  if (*snapshot_partitions < *results_partitions) {
    return absl::FailedPreconditionError(
        absl::StrCat("--snapshots-topic=", c.snapshots_topic, " has ", *snapshot_partitions,
                     " partitions, fewer than the ", *results_partitions, " of ", c.results_topic,
                     "; give it at least as many (kafka-topics --alter --partitions)"));
  }
  return ReadOutputPartitions(*results_partitions);
}

absl::Status Daemon::ReadOutputPartitions(int results_partitions) {
  // Deltas and leaderboards of results partition p go to partition p modulo the topic's count
  // (docs/CONTRACTS.md §1.1). With fewer partitions than the results topic, one output
  // partition holds pools of several owners, and a transaction left open by one of them (a
  // SIGKILL mid-commit) holds back the others' records from read_committed readers.
  const std::pair<const std::string*, int32_t*> outputs[] = {
      {&config_.deltas_topic, &output_partitions_.deltas},
      {&config_.leaderboards_topic, &output_partitions_.leaderboards}};
  for (const auto& [topic, count] : outputs) {
    absl::StatusOr<int> n = WaitForPartitionCount(*producer_, *topic);
    if (!n.ok()) return n.status();
    *count = *n;
    if (*n < results_partitions) {
      Log(absl::StrCat("warning: ", *topic, " has ", *n, " partitions, fewer than the ",
                       results_partitions, " of ", config_.results_topic,
                       ": its partitions are shared by the pools of several results partitions "
                       "(docs/CONTRACTS.md §1.1)"));
    }
  }
  return absl::OkStatus();
}

absl::Status Daemon::WarmOutputTopics() {
  // Restart time (docs/BENCHMARKS.md): a client learns a topic's leaders only when it first
  // uses it, and librdkafka 2.0.2 then took 0.5-1 s: the producer's first commit after every
  // start waited for it, and the snapshot reader's first fetch too. Asking now, with handles
  // kept for the clients' life, has the leaders known before the first record.
  const std::pair<RdKafka::Handle*, std::string> topics[] = {
      {producer_.get(), config_.deltas_topic},
      {producer_.get(), config_.leaderboards_topic},
      {producer_.get(), config_.dlq_topic},
      {producer_.get(), config_.snapshots_topic},
      {snapshot_reader_.get(), config_.snapshots_topic}};
  for (const auto& [client, topic] : topics) {
    std::string error;
    std::unique_ptr<RdKafka::Topic> handle(RdKafka::Topic::create(client, topic, nullptr, error));
    if (!handle) return absl::InvalidArgumentError(absl::StrCat("topic ", topic, ": ", error));
    RdKafka::Metadata* raw = nullptr;
    const RdKafka::ErrorCode err = client->metadata(false, handle.get(), &raw, 15000);
    delete raw;
    if (err != RdKafka::ERR_NO_ERROR) {
      return absl::UnavailableError(
          absl::StrCat("metadata of topic ", topic, ": ", RdKafka::err2str(err)));
    }
    output_topics_.push_back(std::move(handle));
  }
  return absl::OkStatus();
}

}  // namespace ratingd
