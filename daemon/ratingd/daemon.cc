#include "daemon/ratingd/daemon.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/kafka/produce_record.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/dead_letter.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/rank_disagreement.h"
#include "daemon/ratingd/result_decoder.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/model.h"

namespace ratingd {
namespace {

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

std::string Key(const std::string& pool, const std::string& model) {
  return absl::StrCat(pool, "/", model);
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
    (void)consumer;  // the daemon's own consumer_
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      daemon_->metrics_->Rebalance("assign").Increment();
      daemon_->OnAssign(partitions);
    } else {
      daemon_->metrics_->Rebalance(err == RdKafka::ERR__REVOKE_PARTITIONS ? "revoke" : "error")
          .Increment();
      daemon_->OnRevoke(partitions);
    }
  }

  void dr_cb(RdKafka::Message& message) override {
    if (message.err() == RdKafka::ERR__PURGE_QUEUE ||
        message.err() == RdKafka::ERR__PURGE_INFLIGHT) {
      return;  // part of an aborted transaction: expected, the records are replayed
    }
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
      next_snapshot_id_(static_cast<uint64_t>(absl::ToUnixNanos(absl::Now())) << 8),
      solver_(std::make_unique<BackgroundWorker>()),
      writer_(std::make_unique<BackgroundWorker>()) {}

RdKafka::RebalanceCb* Daemon::rebalance_cb() { return callbacks_.get(); }
RdKafka::EventCb* Daemon::event_cb() { return callbacks_.get(); }
RdKafka::DeliveryReportCb* Daemon::delivery_cb() { return callbacks_.get(); }

Daemon::~Daemon() {
  solver_.reset();
  writer_.reset();
}

absl::Status Daemon::Run(const std::atomic<bool>& stop) {
  if (RdKafka::ErrorCode err = consumer_->subscribe({config_.results_topic});
      err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat("subscribe: ", RdKafka::err2str(err)));
  }
  Log(absl::StrCat("consuming ", config_.results_topic, " as group ", config_.group, " from ",
                   config_.brokers));
  BeginTransaction();
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
    const absl::Time now = absl::Now();
    if (now - txn_started_ >= config_.commit_interval || txn_records_ >= kMaxTransactionRecords) {
      const bool snapshots = now - last_snapshot_ >= config_.snapshot_interval;
      CommitTransaction(snapshots);
    }
    FinishSnapshotWrites();
    UpdatePartitionMetrics();
    UpdateReadiness();
  }
  // Graceful shutdown (docs/CONTRACTS.md §4).
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
  if (!fatal_.ok()) {
    // No commit: the open transaction is aborted by the broker (or fenced by the restarted
    // instance), and the restart replays from the last committed point.
    ServeQueries();
    return fatal_;
  }
  absl::Status status = absl::OkStatus();
  if (!solved) {
    Log("solves still running: aborting the open transaction (a restart replays it)");
    delete producer_->abort_transaction(5000);
    txn_open_ = false;
  } else if (!CommitTransaction(true)) {
    status =
        fatal_.ok()
            ? absl::UnavailableError("the final transaction did not commit; a restart replays it")
            : fatal_;
  }
  writer_->WaitIdle();
  FinishSnapshotWrites();
  stopping_ = true;  // the revocation in close() commits nothing more
  consumer_->close();
  ServeQueries();  // answer anything still waiting
  return status.ok() ? fatal_ : status;
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
  // Guard against re-delivery below the position (librdkafka 2.0.2, docs/ARCHITECTURE.md §7).
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
  // Records below replay_until were committed before: rebuild the state, emit nothing.
  const bool emit = message.offset() >= partition.replay_until;
  if (!emit) metrics_->replayed_records().Increment();
  ++txn_records_;
  auto decoded = DecodeResult(key, value, config_.pool.options.limits);
  if (auto* rejection = std::get_if<Rejection>(&decoded)) {
    if (emit) SendToDlq(message, rejection->reason, rejection->message);
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
      if (emit) SendToDlq(message, "model_error", std::string(outcome.status().message()));
    } else if (*outcome == LivePool::Outcome::kDuplicate) {
      if (emit) metrics_->duplicate().Increment();
    } else if (!emit) {
      if (job) SubmitMlJob(*std::move(job), partition.partition, false);
    } else {
      metrics_->applied().Increment();
      prometheus::Counter*& pool_results = pool_results_[d.record.pool];
      if (pool_results == nullptr) pool_results = &metrics_->PoolResults(d.record.pool);
      pool_results->Increment();
      for (const v1::RankingDelta& delta : deltas) {
        PublishDelta(delta);
        // LivePool::Apply names the model with ModelName: it always parses.
        if (const std::optional<ratings::Model> model = ratings::ParseModel(delta.model())) {
          dirty_.insert({d.record.pool, *model});
        }
      }
      if (job) SubmitMlJob(*std::move(job), partition.partition, true);
      if (!was_refused && (*pool)->pool().ml() && (*pool)->pool().ml()->refused()) {
        Log(absl::StrCat("pool '", d.record.pool, "' passed ml's max_agents (",
                         config_.pool.options.ml_options.max_agents,
                         "): ml is off for it from now on"));
      }
    }
  }
  partition.next_offset = message.offset() + 1;
  counters.last_timestamp->Set(static_cast<double>(message.timestamp().timestamp) / 1e3);
  if (!emit && partition.next_offset >= partition.replay_until) {
    Log(absl::StrCat("partition ", partition.partition, ": replayed to the committed offset ",
                     partition.replay_until, "; emitting from here"));
    for (const auto& [name, pool] : partition.pools) {
      for (ratings::Model model : ratings::kModels) dirty_.insert({name, model});
    }
  }
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
  std::string key = message.key() ? *message.key() : std::string();
  if (key.size() > kDeadLetterMaxKeyBytes) {
    headers->add("x-ratingd-key-truncated", absl::StrCat(key.size()));
    key.resize(kDeadLetterMaxKeyBytes);
  }
  const size_t keep = DeadLetterValueBytes(message.len(), key, *headers, config_.dlq_max_bytes);
  if (keep < message.len()) headers->add("x-ratingd-truncated", absl::StrCat(message.len()));
  const std::string value(static_cast<const char*>(message.payload()), keep);
  txn_dirty_ = true;
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
  txn_dirty_ = true;
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

void Daemon::SubmitMlJob(MlJob job, int32_t partition, bool emit) {
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
  solver_->Submit([this, shared, partition, incarnation, emit] {
    const auto start = std::chrono::steady_clock::now();
    MlSolution solution = LivePool::Solve(std::move(*shared));
    metrics_->ml_solve_duration().Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::lock_guard<std::mutex> lock(solved_mu_);
    solved_.push_back({std::move(solution), partition, incarnation, emit});
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
    v1::RankingDelta delta = live.AcceptMlSolution(s.solution);
    if (!s.emit) continue;  // replayed: that delta was committed before
    PublishDelta(delta);
    dirty_.insert({live.name(), ratings::Model::kMl});
    if (metrics_->PoolLabel(live.name()) != "_other") {
      metrics_->MlExploitability(live.name()).Set(live.ml_exploitability());
      const std::vector<uint32_t> ml = live.Ranks(ratings::Model::kMl);
      if (live.pool().elo()) {
        metrics_->RankDisagreement(live.name(), "elo_ml")
            .Set(NormalizedKendallTau(live.Ranks(ratings::Model::kElo), ml));
      }
      if (live.pool().sco()) {
        metrics_->RankDisagreement(live.name(), "sco_ml")
            .Set(NormalizedKendallTau(live.Ranks(ratings::Model::kSco), ml));
      }
    }
  }
}

void Daemon::PublishLeaderboards(bool force) {
  if (dirty_.empty()) return;
  const absl::Time now = absl::Now();
  std::vector<std::pair<std::string, ratings::Model>> done;
  for (const auto& [pool_name, model] : dirty_) {
    const std::string key = Key(pool_name, std::string(ratings::ModelName(model)));
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
    txn_dirty_ = true;
    if (Produce(*producer_, config_.leaderboards_topic, key, bytes, nullptr, nullptr).ok()) {
      metrics_->leaderboards_published().Increment();
    }
    last_published_[key] = now;
    if (metrics_->PoolLabel(pool_name) != "_other") {
      metrics_->PoolAgents(pool_name).Set(static_cast<double>(live.pool().index().size()));
      if (model != ratings::Model::kMl && live.pool().elo() && live.pool().sco()) {
        metrics_->RankDisagreement(pool_name, "elo_sco")
            .Set(NormalizedKendallTau(live.Ranks(ratings::Model::kElo),
                                      live.Ranks(ratings::Model::kSco)));
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
          .Set(static_cast<double>(state.Lag(low, high)));
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

void Daemon::UpdateReadiness() {
  size_t restoring = 0;
  for (const auto& [p, state] : partitions_) restoring += state.next_offset < state.replay_until;
  metrics_->partitions_restoring().Set(static_cast<double>(restoring));
  const bool ready = fatal_.ok() && restoring == 0;
  if (ready != ready_.load()) {
    ready_ = ready;
    metrics_->ready().Set(ready ? 1 : 0);
  }
}

}  // namespace ratingd
