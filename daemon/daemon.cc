#include "daemon/daemon.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/json_output.h"
#include "daemon/pool_report.h"
#include "daemon/rank_disagreement.h"
#include "daemon/result_decoder.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/time_util.h"

namespace ratingd {
namespace {

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

void Log(const std::string& line) { std::fprintf(stderr, "ratingd: %s\n", line.c_str()); }

std::string Key(const std::string& pool, const std::string& model) {
  return absl::StrCat(pool, "/", model);
}

QueryReply JsonReply(int status, const google::protobuf::Message& message) {
  absl::StatusOr<std::string> json = DeterministicJson(message);
  if (!json.ok()) return {500, R"({"error": "cannot print the reply"})"};
  return {status, *json};
}

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

// librdkafka's callbacks; all run on the consumer thread (inside consume() and poll()).
class Daemon::Callbacks : public RdKafka::RebalanceCb,
                          public RdKafka::DeliveryReportCb,
                          public RdKafka::EventCb {
 public:
  explicit Callbacks(Daemon* daemon) : daemon_(daemon) {}

  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      daemon_->metrics_->Rebalance("assign").Increment();
      daemon_->OnAssign(partitions);
      consumer->assign(partitions);
      daemon_->ready_ = daemon_->fatal_.ok();
      daemon_->metrics_->ready().Set(daemon_->ready_ ? 1 : 0);
    } else {
      daemon_->metrics_->Rebalance(err == RdKafka::ERR__REVOKE_PARTITIONS ? "revoke" : "error")
          .Increment();
      daemon_->OnRevoke(partitions);
      consumer->unassign();
    }
  }

  void dr_cb(RdKafka::Message& message) override {
    if (message.err() != RdKafka::ERR_NO_ERROR) {
      daemon_->metrics_->KafkaError(RdKafka::err2str(message.err())).Increment();
      Log(absl::StrCat("delivery to ", message.topic_name(), " failed: ", message.errstr()));
      return;
    }
    const auto event_us = reinterpret_cast<intptr_t>(message.msg_opaque());
    if (event_us > 0) {
      daemon_->metrics_->end_to_end_latency().Observe(static_cast<double>(NowMicros() - event_us) /
                                                      1e6);
    }
  }

  void event_cb(RdKafka::Event& event) override {
    if (event.type() == RdKafka::Event::EVENT_ERROR) {
      daemon_->metrics_->KafkaError(RdKafka::err2str(event.err())).Increment();
      Log(absl::StrCat("kafka: ", RdKafka::err2str(event.err()), ": ", event.str()));
      if (event.fatal()) {
        daemon_->fatal_ = absl::InternalError(absl::StrCat("fatal Kafka error: ", event.str()));
      }
    } else if (event.type() == RdKafka::Event::EVENT_LOG && event.severity() <= 4) {
      Log(absl::StrCat("kafka: ", event.fac(), ": ", event.str()));
    }
  }

 private:
  Daemon* daemon_;
};

Daemon::Daemon(const DaemonConfig& config, Metrics* metrics)
    : config_(config),
      metrics_(metrics),
      fingerprint_(ParamsFingerprint(config.pool)),
      callbacks_(std::make_unique<Callbacks>(this)),
      solver_(std::make_unique<BackgroundWorker>()),
      writer_(std::make_unique<BackgroundWorker>()) {}

Daemon::~Daemon() {
  solver_.reset();
  writer_.reset();
}

absl::Status ValidateDaemonConfig(const DaemonConfig& config) {
  if (config.brokers.empty()) return absl::InvalidArgumentError("--brokers is empty");
  if (config.group.empty()) return absl::InvalidArgumentError("--group is empty");
  for (const auto& [flag, topic] : {std::pair("--results-topic", config.results_topic),
                                    {"--deltas-topic", config.deltas_topic},
                                    {"--leaderboards-topic", config.leaderboards_topic},
                                    {"--dlq-topic", config.dlq_topic}}) {
    if (topic.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, " is empty"));
  }
  if (config.snapshot_dir.empty()) {
    return absl::InvalidArgumentError("--snapshot-dir is required (where state survives restarts)");
  }
  if (config.snapshot_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--snapshot-interval must be > 0");
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
                                    // librdkafka 2.0.2: eager assignor (shared/KAFKA.md §2.3)
                                    {"partition.assignment.strategy", "range"},
                                    // Latency (BENCHMARKS.md, end to end): the default 500 ms
                                    // fetch wait put the p99 at ~180 ms; 5 ms gives ~10 ms.
                                    {"fetch.wait.max.ms", "5"}};
  KafkaProperties producer_props = {
      {"bootstrap.servers", config.brokers}, {"client.id", "ratingd"},
      {"enable.idempotence", "true"},        {"linger.ms", "1"},
      {"compression.type", "lz4"},           {"message.max.bytes", "16777216"}};
  if (!config.instance_id.empty()) {
    consumer_props.push_back({"group.instance.id", config.instance_id});
  }
  for (const auto& kv : config.kafka) {
    consumer_props.push_back(kv);
    producer_props.push_back(kv);
  }
  std::string error;
  {
    auto conf = MakeConf(consumer_props);
    if (!conf.ok()) return conf.status();
    (*conf)->set("rebalance_cb", static_cast<RdKafka::RebalanceCb*>(d->callbacks_.get()), error);
    (*conf)->set("event_cb", static_cast<RdKafka::EventCb*>(d->callbacks_.get()), error);
    d->consumer_.reset(RdKafka::KafkaConsumer::create(conf->get(), error));
    if (!d->consumer_) return absl::InvalidArgumentError(absl::StrCat("Kafka consumer: ", error));
  }
  {
    auto conf = MakeConf(producer_props);
    if (!conf.ok()) return conf.status();
    (*conf)->set("dr_cb", static_cast<RdKafka::DeliveryReportCb*>(d->callbacks_.get()), error);
    (*conf)->set("event_cb", static_cast<RdKafka::EventCb*>(d->callbacks_.get()), error);
    d->producer_.reset(RdKafka::Producer::create(conf->get(), error));
    if (!d->producer_) return absl::InvalidArgumentError(absl::StrCat("Kafka producer: ", error));
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
  return d;
}

absl::Status Daemon::Run(const std::atomic<bool>& stop) {
  if (RdKafka::ErrorCode err = consumer_->subscribe({config_.results_topic});
      err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat("subscribe: ", RdKafka::err2str(err)));
  }
  Log(absl::StrCat("consuming ", config_.results_topic, " as group ", config_.group, " from ",
                   config_.brokers));
  while (!stop.load() && fatal_.ok()) {
    // A batch of records, then the housekeeping.
    // Wait briefly for the first record while deliveries are outstanding, so their
    // reports (end-to-end latency, errors) are not held back by an idle input.
    const int wait_ms = producer_->outq_len() > 0 ? 1 : 20;
    for (int i = 0; i < 1000 && !stop.load(); ++i) {
      std::unique_ptr<RdKafka::Message> message(consumer_->consume(i == 0 ? wait_ms : 0));
      if (message->err() == RdKafka::ERR__TIMED_OUT) break;
      OnMessage(*message);
      if (i % 256 == 255) producer_->poll(0);
    }
    producer_->poll(0);
    DrainMlSolutions();
    if (queries_.pending()) ServeQueries();
    PublishLeaderboards(false);
    if (absl::Now() - last_snapshot_ >= config_.snapshot_interval) Snapshot(true, false);
    FinishSnapshotWrites();
    UpdatePartitionMetrics();
  }
  // Graceful shutdown (DESIGN §8).
  Log(fatal_.ok() ? "stopping: draining" : std::string(fatal_.message()));
  ready_ = false;
  metrics_->ready().Set(0);
  const absl::Time deadline = absl::Now() + config_.drain_timeout;
  bool solved = false;
  while (!(solved = solver_->WaitIdleFor(std::chrono::milliseconds(10))) &&
         absl::Now() < deadline) {
    producer_->poll(0);
    if (queries_.pending()) ServeQueries();
  }
  DrainMlSolutions();
  PublishLeaderboards(true);
  const int64_t left_ms = std::max<int64_t>(100, absl::ToInt64Milliseconds(deadline - absl::Now()));
  if (producer_->flush(static_cast<int>(left_ms)) != RdKafka::ERR_NO_ERROR) {
    Log(absl::StrCat(producer_->outq_len(), " messages not delivered before the deadline"));
  }
  if (solved) {
    Snapshot(false, true);
  } else {
    Log("solves still running: keeping the previous snapshots (a restart replays from them)");
  }
  FinishSnapshotWrites();
  consumer_->close();
  ServeQueries();  // answer anything still waiting
  return fatal_;
}

void Daemon::OnMessage(RdKafka::Message& message) {
  switch (message.err()) {
    case RdKafka::ERR_NO_ERROR: {
      auto it = partitions_.find(message.partition());
      if (it == partitions_.end()) return;  // not (or no longer) ours
      OnRecord(message, it->second);
      return;
    }
    case RdKafka::ERR__TIMED_OUT:
    case RdKafka::ERR__PARTITION_EOF:
      return;
    default:
      metrics_->KafkaError(RdKafka::err2str(message.err())).Increment();
      Log(absl::StrCat("consume: ", message.errstr()));
      if (message.err() == RdKafka::ERR__FATAL) {
        fatal_ = absl::InternalError(absl::StrCat("fatal consumer error: ", message.errstr()));
      }
  }
}

void Daemon::OnRecord(RdKafka::Message& message, PartitionState& partition) {
  // Guard against re-delivery below the position (librdkafka 2.0.2, shared/KAFKA.md §2.6).
  if (message.offset() < partition.next_offset) return;
  PartitionCounters& counters = partition_counters_[message.partition()];
  if (counters.consumed == nullptr) {
    counters.consumed = &metrics_->Consumed(config_.results_topic, message.partition());
    counters.last_timestamp =
        &metrics_->LastRecordTimestamp(config_.results_topic, message.partition());
  }
  counters.consumed->Increment();
  if (message.timestamp().type == RdKafka::MessageTimestamp::MSG_TIMESTAMP_CREATE_TIME) {
    metrics_->ingest_latency().Observe(
        static_cast<double>(NowMicros() / 1000 - message.timestamp().timestamp) / 1e3);
  }
  const absl::string_view key =
      message.key_pointer() == nullptr
          ? absl::string_view()
          : absl::string_view(static_cast<const char*>(message.key_pointer()), message.key_len());
  const absl::string_view value(static_cast<const char*>(message.payload()), message.len());
  auto decoded = DecodeResult(key, value, config_.pool.options.limits);
  if (auto* rejection = std::get_if<Rejection>(&decoded)) {
    SendToDlq(message, rejection->reason, rejection->message);
  } else {
    const DecodedResult& d = std::get<DecodedResult>(decoded);
    absl::StatusOr<LivePool*> pool = partition.GetOrCreate(d.record.pool, config_.pool);
    if (!pool.ok()) {
      fatal_ = pool.status();
      return;
    }
    pool_partition_[d.record.pool] = partition.partition;
    std::vector<v1::RankingDelta>& deltas = deltas_scratch_;
    std::optional<MlJob> job;
    const auto start = std::chrono::steady_clock::now();
    const bool was_refused = (*pool)->pool().ml() && (*pool)->pool().ml()->refused();
    absl::StatusOr<LivePool::Outcome> outcome =
        (*pool)->Apply(d.record.result, d.record.game_id, d.event_time, &deltas, &job);
    metrics_->update_duration().Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!outcome.ok()) {
      SendToDlq(message, "model_error", std::string(outcome.status().message()));
    } else if (*outcome == LivePool::Outcome::kDuplicate) {
      metrics_->duplicate().Increment();
    } else {
      metrics_->applied().Increment();
      prometheus::Counter*& pool_results = pool_results_[d.record.pool];
      if (pool_results == nullptr) pool_results = &metrics_->PoolResults(d.record.pool);
      pool_results->Increment();
      for (const v1::RankingDelta& delta : deltas) {
        PublishDelta(delta);
        dirty_.insert({d.record.pool, delta.model()});
      }
      if (job) SubmitMlJob(*std::move(job), partition.partition);
      if (!was_refused && (*pool)->pool().ml() && (*pool)->pool().ml()->refused()) {
        Log(absl::StrCat("pool '", d.record.pool, "' passed ml's max_agents (",
                         config_.pool.options.ml_options.max_agents,
                         "): ml is off for it from now on"));
      }
    }
  }
  partition.next_offset = message.offset() + 1;
  counters.last_timestamp->Set(static_cast<double>(message.timestamp().timestamp) / 1e3);
}

void Daemon::SendToDlq(const RdKafka::Message& message, const std::string& reason,
                       const std::string& why) {
  metrics_->Rejected(reason).Increment();
  RdKafka::Headers* headers = RdKafka::Headers::create();
  headers->add("x-ratingd-reason", reason);
  headers->add("x-ratingd-error", why);
  headers->add("x-src-topic", message.topic_name());
  headers->add("x-src-partition", absl::StrCat(message.partition()));
  headers->add("x-src-offset", absl::StrCat(message.offset()));
  headers->add("x-ratingd-version", RATINGD_VERSION);
  const std::string key = message.key() ? *message.key() : std::string();
  const std::string value(static_cast<const char*>(message.payload()), message.len());
  absl::Status s = Produce(*producer_, config_.dlq_topic, key, value, headers, nullptr);
  if (s.ok()) {
    metrics_->dlq_records().Increment();
  } else {
    Log(std::string(s.message()));
  }
}

void Daemon::PublishDelta(const v1::RankingDelta& delta) {
  for (const v1::AgentChange& c : delta.changes()) {
    if (c.new_rank() == 1 && c.old_rank() != 1) {
      metrics_->TopChanges(delta.pool(), delta.model()).Increment();
    }
  }
  std::string& bytes = bytes_scratch_;
  delta.SerializeToString(&bytes);
  const int64_t event_us =
      delta.has_event_time()
          ? google::protobuf::util::TimeUtil::TimestampToMicroseconds(delta.event_time())
          : 0;
  absl::Status s =
      Produce(*producer_, config_.deltas_topic, Key(delta.pool(), delta.model()), bytes, nullptr,
              reinterpret_cast<void*>(static_cast<intptr_t>(event_us)));
  if (s.ok()) {
    prometheus::Counter*& published = deltas_published_[delta.model()];
    if (published == nullptr) published = &metrics_->DeltasPublished(delta.model());
    published->Increment();
  } else {
    Log(std::string(s.message()));
  }
}

void Daemon::SubmitMlJob(MlJob job, int32_t partition) {
  // Back-pressure: each job holds a copy of its pool; never queue more than a few.
  int pending = 0;
  for (const auto& [p, n] : pending_ml_) pending += n;
  if (pending >= 4) {
    solver_->WaitIdle();
    DrainMlSolutions();
  }
  ++pending_ml_[partition];
  const uint64_t incarnation = incarnation_[partition];
  auto shared = std::make_shared<MlJob>(std::move(job));
  solver_->Submit([this, shared, partition, incarnation] {
    const auto start = std::chrono::steady_clock::now();
    MlSolution solution = LivePool::Solve(std::move(*shared));
    metrics_->ml_solve_duration().Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::lock_guard<std::mutex> lock(solved_mu_);
    solved_.push_back({std::move(solution), partition, incarnation});
  });
}

void Daemon::DrainMlSolutions() {
  std::vector<Solved> solved;
  {
    std::lock_guard<std::mutex> lock(solved_mu_);
    solved.swap(solved_);
  }
  for (Solved& s : solved) {
    auto it = partitions_.find(s.partition);
    if (it == partitions_.end() || incarnation_[s.partition] != s.incarnation) continue;
    --pending_ml_[s.partition];
    auto pool = it->second.pools.find(s.solution.job.pool);
    if (pool == it->second.pools.end()) continue;
    LivePool& live = *pool->second;
    PublishDelta(live.AcceptMlSolution(s.solution));
    dirty_.insert({live.name(), "ml"});
    if (metrics_->PoolLabel(live.name()) != "_other") {
      metrics_->MlExploitability(live.name()).Set(live.ml_exploitability());
      const std::vector<uint32_t> ml = live.Ranks("ml");
      if (live.pool().elo()) {
        metrics_->RankDisagreement(live.name(), "elo_ml")
            .Set(NormalizedKendallTau(live.Ranks("elo"), ml));
      }
      if (live.pool().sco()) {
        metrics_->RankDisagreement(live.name(), "sco_ml")
            .Set(NormalizedKendallTau(live.Ranks("sco"), ml));
      }
    }
  }
}

void Daemon::PublishLeaderboards(bool force) {
  if (dirty_.empty()) return;
  const absl::Time now = absl::Now();
  std::vector<std::pair<std::string, std::string>> done;
  for (const auto& [pool_name, model] : dirty_) {
    const std::string key = Key(pool_name, model);
    auto last = last_published_.find(key);
    if (!force && last != last_published_.end() &&
        now - last->second < config_.leaderboard_interval) {
      continue;
    }
    done.emplace_back(pool_name, model);
    auto where = pool_partition_.find(pool_name);
    if (where == pool_partition_.end()) continue;
    auto partition = partitions_.find(where->second);
    if (partition == partitions_.end()) continue;
    auto pool = partition->second.pools.find(pool_name);
    if (pool == partition->second.pools.end()) continue;
    const LivePool& live = *pool->second;
    v1::Leaderboard board = live.Leaderboard(model);
    *board.mutable_computed_at() =
        google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(now));
    std::string bytes;
    board.SerializeToString(&bytes);
    if (Produce(*producer_, config_.leaderboards_topic, key, bytes, nullptr, nullptr).ok()) {
      metrics_->leaderboards_published().Increment();
    }
    last_published_[key] = now;
    if (metrics_->PoolLabel(pool_name) != "_other") {
      metrics_->PoolAgents(pool_name).Set(static_cast<double>(live.pool().index().size()));
      if (model != "ml" && live.pool().elo() && live.pool().sco()) {
        metrics_->RankDisagreement(pool_name, "elo_sco")
            .Set(NormalizedKendallTau(live.Ranks("elo"), live.Ranks("sco")));
      }
    }
  }
  for (const auto& d : done) dirty_.erase(d);
}

void Daemon::UpdatePartitionMetrics() {
  const absl::Time now = absl::Now();
  if (now - last_metrics_ < absl::Seconds(1)) return;
  last_metrics_ = now;
  size_t pools = 0, refused = 0;
  for (const auto& [p, state] : partitions_) {
    int64_t low = 0, high = 0;
    if (consumer_->get_watermark_offsets(config_.results_topic, p, &low, &high) ==
            RdKafka::ERR_NO_ERROR &&
        high >= 0) {
      metrics_->ConsumerLag(config_.results_topic, p)
          .Set(static_cast<double>(std::max<int64_t>(0, high - std::max(state.next_offset, low))));
    }
    pools += state.pools.size();
    for (const auto& [name, pool] : state.pools) {
      refused += pool->pool().ml() && pool->pool().ml()->refused();
    }
  }
  metrics_->pools().Set(static_cast<double>(pools));
  metrics_->ml_refused_pools().Set(static_cast<double>(refused));
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

void Daemon::Snapshot(bool wait, bool sync) {
  if (wait) {
    solver_->WaitIdle();
    DrainMlSolutions();
  }
  last_snapshot_ = absl::Now();
  // Every delta and dead letter of the results a snapshot covers must be on the broker
  // first: a restart resumes after the snapshot and would never send them again.
  producer_->flush(5000);
  if (producer_->outq_len() > 0) {
    Log(absl::StrCat("snapshot postponed: ", producer_->outq_len(),
                     " messages not yet acknowledged by the broker"));
    return;
  }
  for (const auto& [p, state] : partitions_) {
    if (pending_ml_[p] > 0) continue;  // not at a consistent point; next time
    const auto start = std::chrono::steady_clock::now();
    auto snapshot = std::make_shared<v1::Snapshot>(state.ToSnapshot(fingerprint_));
    snapshot->set_written_unix_ms(absl::ToUnixMillis(absl::Now()));
    const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, p);
    const int32_t partition = p;
    const int64_t next_offset = state.next_offset;
    auto write = [this, snapshot, path, partition, next_offset, start] {
      absl::StatusOr<size_t> bytes = WriteSnapshotFile(path, *snapshot);
      const absl::Duration took = absl::FromChrono(std::chrono::steady_clock::now() - start);
      std::lock_guard<std::mutex> lock(written_mu_);
      written_.push_back({partition, next_offset, std::move(bytes), took});
    };
    if (sync) {
      write();
    } else {
      writer_->Submit(std::move(write));
    }
  }
}

void Daemon::FinishSnapshotWrites() {
  std::vector<Written> written;
  {
    std::lock_guard<std::mutex> lock(written_mu_);
    written.swap(written_);
  }
  std::vector<RdKafka::TopicPartition*> offsets;
  for (const Written& w : written) {
    if (!w.bytes.ok()) {
      metrics_->snapshot_failures().Increment();
      Log(std::string(w.bytes.status().message()));
      continue;
    }
    metrics_->snapshot_duration().Observe(absl::ToDoubleSeconds(w.took));
    metrics_->SnapshotSize(w.partition).Set(static_cast<double>(*w.bytes));
    metrics_->last_snapshot().Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
    // Informational (lag tools): restarts resume from the snapshot, not from this commit.
    if (partitions_.count(w.partition) && w.next_offset > 0) {
      offsets.push_back(
          RdKafka::TopicPartition::create(config_.results_topic, w.partition, w.next_offset));
    }
  }
  if (!offsets.empty()) {
    consumer_->commitAsync(offsets);
    RdKafka::TopicPartition::destroy(offsets);
  }
}

absl::Status Daemon::RestorePartition(int32_t partition, PartitionState* out) {
  const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, partition);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::optional<v1::Snapshot>> snapshot = ReadSnapshotFile(path);
  if (!snapshot.ok()) return snapshot.status();
  if (!snapshot->has_value()) {
    out->topic = config_.results_topic;
    out->partition = partition;
    out->next_offset = 0;
    Log(absl::StrCat("partition ", partition, ": no snapshot, reading from the beginning"));
    return absl::OkStatus();
  }
  absl::StatusOr<PartitionState> state =
      PartitionState::FromSnapshot(*std::move(*snapshot), config_.pool, fingerprint_);
  if (!state.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", state.status().message()));
  }
  if (state->topic != config_.results_topic || state->partition != partition) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": holds ", state->topic, "/",
                                                   state->partition, ", not ",
                                                   config_.results_topic, "/", partition));
  }
  *out = *std::move(state);
  metrics_->restore_duration().Observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  Log(absl::StrCat("partition ", partition, ": restored ", out->pools.size(),
                   " pools from the snapshot at offset ", out->next_offset));
  return absl::OkStatus();
}

void Daemon::OnAssign(std::vector<RdKafka::TopicPartition*>& partitions) {
  for (RdKafka::TopicPartition* tp : partitions) {
    const int32_t p = tp->partition();
    if (!partitions_.count(p)) {
      PartitionState state;
      absl::Status restored = RestorePartition(p, &state);
      if (!restored.ok()) {
        fatal_ = restored;
        Log(std::string(restored.message()));
        continue;
      }
      for (const auto& [name, pool] : state.pools) pool_partition_[name] = p;
      partitions_.emplace(p, std::move(state));
      incarnation_[p] = next_incarnation_++;
      pending_ml_[p] = 0;
    }
    // Resume exactly after the snapshot: the state reflects every record before it.
    const int64_t next = partitions_.count(p) ? partitions_.at(p).next_offset : 0;
    tp->set_offset(next > 0 ? next : RdKafka::Topic::OFFSET_BEGINNING);
  }
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

void Daemon::OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions) {
  // Snapshot what we hand over, then forget it.
  Snapshot(true, true);
  FinishSnapshotWrites();
  for (RdKafka::TopicPartition* tp : partitions) {
    auto it = partitions_.find(tp->partition());
    if (it == partitions_.end()) continue;
    for (const auto& [name, pool] : it->second.pools) pool_partition_.erase(name);
    partitions_.erase(it);
    pending_ml_.erase(tp->partition());
    incarnation_.erase(tp->partition());
  }
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

void Daemon::ServeQueries() {
  for (auto& [query, promise] : queries_.TakeAll()) {
    if (query.kind == Query::Kind::kPools) {
      google::protobuf::Struct body;
      google::protobuf::ListValue& list = *(*body.mutable_fields())["pools"].mutable_list_value();
      for (const auto& [p, state] : partitions_) {
        for (const auto& [name, pool] : state.pools) {
          google::protobuf::Struct& item = *list.add_values()->mutable_struct_value();
          auto& f = *item.mutable_fields();
          f["pool"].set_string_value(name);
          f["partition"].set_number_value(p);
          f["agents"].set_number_value(static_cast<double>(pool->pool().index().size()));
          f["results"].set_number_value(static_cast<double>(pool->pool().results()));
        }
      }
      promise->set_value(JsonReply(200, body));
      continue;
    }
    if (query.model != "elo" && query.model != "sco" && query.model != "ml") {
      promise->set_value(JsonErrorReply(400, "model must be elo, sco or ml"));
      continue;
    }
    auto where = pool_partition_.find(query.pool);
    if (where == pool_partition_.end() || !partitions_.count(where->second)) {
      promise->set_value(JsonErrorReply(
          404, absl::StrCat("pool '", query.pool,
                            "' is not held by this instance: unknown, or its partition is "
                            "assigned to another instance")));
      continue;
    }
    const LivePool& live = *partitions_.at(where->second).pools.at(query.pool);
    const ratings::Pool& pool = live.pool();
    if ((query.model == "elo" && !pool.elo()) || (query.model == "sco" && !pool.sco()) ||
        (query.model == "ml" && !pool.ml())) {
      promise->set_value(JsonErrorReply(404, absl::StrCat("model '", query.model, "' is off")));
      continue;
    }
    if (query.model != "ml") {
      promise->set_value(JsonReply(200, live.Report(query.model, query.limit)));
      continue;
    }
    if (pool.ml()->refused()) {
      promise->set_value(JsonErrorReply(
          409, absl::StrCat("ml is off for pool '", query.pool, "': ", pool.index().size(),
                            " agents exceed max_agents=", pool.ml()->options().max_agents)));
      continue;
    }
    // Solve a copy off the consumer thread, as `ratingctl rate --method ml` does.
    auto copy = std::make_shared<ratings::Pool>(pool);
    const size_t limit = query.limit;
    std::shared_ptr<std::promise<QueryReply>> reply_to = promise;
    solver_->Submit([copy, limit, reply_to] {
      absl::StatusOr<v1::RatingReport> report = PoolReport("ml", *copy, limit);
      reply_to->set_value(report.ok()
                              ? JsonReply(200, *report)
                              : JsonErrorReply(500, std::string(report.status().message())));
    });
  }
}

}  // namespace ratingd
