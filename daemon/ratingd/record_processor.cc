#include "daemon/ratingd/record_processor.h"

#include <chrono>
#include <optional>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/rank_disagreement.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/model.h"

namespace ratingd {

RecordProcessor::RecordProcessor(const DaemonConfig& config, PartitionRegistry* registry,
                                 OutputSink* sink, LeaderboardPublisher* leaderboards,
                                 ViewBuilder* views, MlSolver* solver, Metrics* metrics,
                                 const Clock* clock)
    : config_(config),
      registry_(registry),
      sink_(sink),
      leaderboards_(leaderboards),
      views_(views),
      solver_(solver),
      metrics_(metrics),
      clock_(clock),
      batcher_([this](DeltaBatchRecord&& batch) {
        const size_t deltas = batch.event_unix_us.size();
        const std::optional<ratings::Model> model =
            ratings::ParseModel(batch.key.substr(batch.key.rfind('/') + 1));
        absl::Status s = sink_->DeltaBatch(std::move(batch));
        if (!s.ok()) {
          Log(std::string(s.message()));  // the commit fails and rolls back
          return;
        }
        if (model) DeltasPublished(*model).Increment(static_cast<double>(deltas));
      }) {}

prometheus::Counter& RecordProcessor::DeltasPublished(ratings::Model model) {
  prometheus::Counter*& published = deltas_published_[static_cast<size_t>(model)];
  if (published == nullptr) {
    published = &metrics_->DeltasPublished(std::string(ratings::ModelName(model)));
  }
  return *published;
}

absl::Status RecordProcessor::Process(const ConsumedRecord& record) {
  PartitionState* partition = registry_->Find(record.partition);
  if (partition == nullptr) return absl::OkStatus();  // not (or no longer) ours
  // Guard against re-delivery below the position (librdkafka 2.0.2, docs/ARCHITECTURE.md §7).
  if (record.offset < partition->next_offset) return absl::OkStatus();
  PartitionCounters& counters = partition_counters_[record.partition];
  if (counters.consumed == nullptr) {
    counters.consumed = &metrics_->Consumed(config_.results_topic, record.partition);
    counters.last_timestamp =
        &metrics_->LastRecordTimestamp(config_.results_topic, record.partition);
  }
  counters.consumed->Increment();
  if (record.create_time_ms.has_value()) {
    const int64_t now_ms = absl::ToUnixMillis(clock_->Now());
    metrics_->ingest_latency().Observe(static_cast<double>(now_ms - *record.create_time_ms) / 1e3);
  }
  // Records below replay_until were committed before: rebuild the state, emit nothing.
  const bool emit = record.offset >= partition->replay_until;
  if (!emit) metrics_->replayed_records().Increment();
  auto decoded = decoder_.Decode(record.key.value_or(absl::string_view()), record.value,
                                 config_.pool.options.limits);
  if (auto* rejection = std::get_if<Rejection>(&decoded)) {
    if (emit) SendToDlq(record, rejection->reason, rejection->message);
  } else {
    const DecodedResult& d = *std::get<const DecodedResult*>(decoded);
    absl::StatusOr<LivePool*> pool =
        registry_->GetOrCreatePool(*partition, d.record.pool, config_.pool);
    if (!pool.ok()) return pool.status();
    Apply(record, d, **pool, *partition, emit);
  }
  partition->next_offset = record.offset + 1;
  counters.last_timestamp->Set(static_cast<double>(record.timestamp_ms) / 1e3);
  if (!emit && !partition->replaying()) {
    Log(absl::StrCat("partition ", partition->partition, ": replayed to the committed offset ",
                     partition->replay_until, "; emitting from here"));
    partition->RequestSnapshot();
    // The replayed state is the committed one: its views are published now, not at the next
    // commit, which new records may be seconds away from (the instance turns ready first).
    views_->PublishPartition(*registry_, partition->partition, clock_->Now());
    CaughtUp(*partition);
  }
  return absl::OkStatus();
}

void RecordProcessor::Apply(const ConsumedRecord& record, const DecodedResult& d, LivePool& pool,
                            PartitionState& partition, bool emit) {
  std::vector<v1::RankingDelta>& deltas = deltas_scratch_;
  std::optional<MlJob> job;
  // Timed for one result in kUpdateTimingSample: two clock reads are ~5% of a result's cost.
  const bool timed = ++applied_ % kUpdateTimingSample == 0;
  const auto start =
      timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  const bool was_refused = pool.pool().ml() && pool.pool().ml()->refused();
  absl::StatusOr<LivePool::Outcome> outcome =
      pool.Apply(d.record.result, d.record.game_id, d.record.event_time ? &d.event_time : nullptr,
                 record.timestamp_ms, &deltas, &job);
  if (timed) {
    metrics_->update_duration().Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (!outcome.ok()) {
    if (emit) SendToDlq(record, "model_error", std::string(outcome.status().message()));
    return;
  }
  if (*outcome == LivePool::Outcome::kDuplicate) {
    if (emit) metrics_->duplicate().Increment();
    return;
  }
  views_->MarkApplied(pool.name());
  if (emit) {
    metrics_->applied().Increment();
    prometheus::Counter*& pool_results = pool_results_[pool.name()];
    if (pool_results == nullptr) pool_results = &metrics_->PoolResults(pool.name());
    pool_results->Increment();
    size_t i = 0;  // LivePool::Apply's deltas, in kPerResultModels order
    for (const ratings::Model model : kPerResultModels) {
      if (!ratings::ModelOn(pool.pool().options(), model)) continue;
      PublishDelta(partition.partition, deltas[i++], model);
      leaderboards_->MarkDue(pool.name(), model);
    }
    if (!was_refused && pool.pool().ml() && pool.pool().ml()->refused()) {
      Log(absl::StrCat("pool '", pool.name(), "' passed ml's max_agents (",
                       config_.pool.options.ml_options.max_agents,
                       "): ml is off for it from now on"));
    }
  }
  if (job) {
    // Back-pressure: each job holds a copy of its pool; never queue more than a few.
    if (solver_->in_flight() >= MlSolver::kMaxInFlight) {
      solver_->WaitIdle();
      AcceptMlSolutions();
    }
    solver_->Submit(*std::move(job), {partition.partition, partition.incarnation(), emit});
  }
}

void RecordProcessor::AcceptMlSolutions() {
  for (SolvedMl& s : solver_->TakeSolved()) {
    PartitionState* partition = registry_->Find(s.ticket.partition);
    if (partition == nullptr || partition->incarnation() != s.ticket.incarnation) continue;
    auto pool = partition->pools.find(s.solution.job.pool);
    if (pool == partition->pools.end()) continue;
    LivePool& live = *pool->second;
    v1::RankingDelta delta = live.AcceptMlSolution(s.solution);
    views_->MarkSolved(live.name());
    if (!s.ticket.emit) continue;  // replayed: that delta was committed before
    PublishDelta(partition->partition, delta, ratings::Model::kMl);
    leaderboards_->MarkDue(live.name(), ratings::Model::kMl);
    UpdateMlGauges(live);
  }
}

void RecordProcessor::CaughtUp(const PartitionState& partition) {
  for (const auto& [name, pool] : partition.pools) leaderboards_->MarkAllDue(*pool);
}

void RecordProcessor::Forget(const PartitionState& partition) {
  for (const auto& [name, pool] : partition.pools) {
    metrics_->ForgetPool(name);
    leaderboards_->Forget(name);
    pool_results_.erase(name);
  }
  partition_counters_.erase(partition.partition);  // holds a pointer to a gauge removed here
  metrics_->ForgetPartition(config_.results_topic, partition.partition);
}

void RecordProcessor::UpdateMlGauges(const LivePool& live) {
  if (metrics_->PoolLabel(live.name()) == "_other") return;
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

void RecordProcessor::SendToDlq(const ConsumedRecord& record, const std::string& reason,
                                const std::string& why) {
  metrics_->Rejected(reason).Increment();
  const DeadLetterRecord letter =
      MakeDeadLetter({config_.results_topic, record.partition, record.offset}, record.key,
                     record.value, reason, why, RATINGD_VERSION, config_.dlq_max_bytes);
  absl::Status s = sink_->DeadLetter(letter);
  if (s.ok()) {
    metrics_->dlq_records().Increment();
  } else {
    Log(std::string(s.message()));
  }
}

void RecordProcessor::PublishDelta(int32_t partition, const v1::RankingDelta& delta,
                                   ratings::Model model) {
  for (const v1::AgentChange& c : delta.changes()) {
    if (c.new_rank() == 1 && c.old_rank() != 1) {
      metrics_->TopChanges(delta.pool(), delta.model()).Increment();
    }
  }
  const int64_t event_us =
      delta.has_event_time()
          ? google::protobuf::util::TimeUtil::TimestampToMicroseconds(delta.event_time())
          : 0;
  if (config_.delta_format == DaemonConfig::DeltaFormat::kBatch) {
    batcher_.Add(partition, delta, event_us);
    return;  // counted when the batch is sent
  }
  std::string& bytes = bytes_scratch_;
  delta.SerializeToString(&bytes);
  absl::Status s =
      sink_->Delta(partition, absl::StrCat(delta.pool(), "/", delta.model()), bytes, event_us);
  if (s.ok()) {
    DeltasPublished(model).Increment();
  } else {
    Log(std::string(s.message()));
  }
}

}  // namespace ratingd
