#include "daemon/ratingd/metrics.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/result_decoder.h"
#include "prometheus/gauge.h"
#include "ratings/model.h"

namespace ratingd {
namespace {

using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;
using prometheus::Histogram;

Histogram::BucketBoundaries LatencyBuckets() {
  return {1e-6, 5e-6,   1e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3,
          1e-2, 2.5e-2, 5e-2, 0.1,  0.25, 0.5,    1.0,  2.5,  5.0,    10.0};
}

prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& r, const char* name,
                                                       const char* help) {
  return BuildCounter().Name(name).Help(help).Register(r);
}

prometheus::Family<prometheus::Gauge>& GaugeFamily(prometheus::Registry& r, const char* name,
                                                   const char* help) {
  return BuildGauge().Name(name).Help(help).Register(r);
}

// A family of one unlabelled series, and that series.
prometheus::Counter& NewCounter(prometheus::Registry& r, const char* name, const char* help) {
  return CounterFamily(r, name, help).Add({});
}

prometheus::Gauge& NewGauge(prometheus::Registry& r, const char* name, const char* help) {
  return GaugeFamily(r, name, help).Add({});
}

Histogram& NewHistogram(prometheus::Registry& r, const char* name, const char* help) {
  return BuildHistogram().Name(name).Help(help).Register(r).Add({}, LatencyBuckets());
}

}  // namespace

Metrics::Metrics(size_t max_pools, const std::string& librdkafka_version)
    : registry_(std::make_shared<prometheus::Registry>()), max_pools_(max_pools) {
  prometheus::Registry& r = *registry_;
  RegisterResultMetrics(r, librdkafka_version);
  RegisterKafkaMetrics(r);
  RegisterSnapshotMetrics(r);
  RegisterTransactionMetrics(r);
  RegisterPoolMetrics(r);
}

// The metrics of results read, applied and published.
void Metrics::RegisterResultMetrics(prometheus::Registry& r,
                                    const std::string& librdkafka_version) {
  BuildGauge()
      .Name("ratingd_build_info")
      .Help("Build information; always 1")
      .Register(r)
      .Add({{"version", RATINGD_VERSION}, {"librdkafka_version", librdkafka_version}})
      .Set(1);
  consumed_family_ =
      &CounterFamily(r, "ratingd_records_consumed_total", "Records read from the results topic");
  rejected_family_ = &CounterFamily(r, "ratingd_results_rejected_total",
                                    "Invalid records sent to the DLQ, by reason");
  for (const std::string& reason : RejectionReasons()) Rejected(reason);
  applied_ = &NewCounter(r, "ratingd_results_applied_total", "Results applied to the models");
  duplicate_ = &NewCounter(r, "ratingd_results_duplicate_total",
                           "Results skipped because their game id was in the pool's window");
  update_duration_ =
      &NewHistogram(r, "ratingd_update_duration_seconds",
                    "Time to apply one result to every model of its pool and compute its deltas");
  end_to_end_ = &NewHistogram(r, "ratingd_end_to_end_latency_seconds",
                              "Result event time to delta acknowledged by the broker");
  ingest_ = &NewHistogram(r, "ratingd_ingest_latency_seconds",
                          "Record timestamp (producer send time) to ratingd reading it: the input "
                          "half of the end-to-end latency");
  ml_solve_ =
      &NewHistogram(r, "ratingd_ml_solve_duration_seconds",
                    "Regret-matching solve of one pool's maximal lottery (off the hot path)");
  deltas_family_ =
      &CounterFamily(r, "ratingd_deltas_published_total", "Ranking deltas produced, by model");
  for (ratings::Model m : ratings::kModels) DeltasPublished(std::string(ratings::ModelName(m)));
  leaderboards_ = &NewCounter(r, "ratingd_leaderboards_published_total",
                              "Leaderboards produced to the compacted topic");
  dlq_ = &NewCounter(r, "ratingd_dlq_records_total", "Records produced to the dead-letter topic");
}

// The metrics of the Kafka clients: errors, lag, assignment, rebalances.
void Metrics::RegisterKafkaMetrics(prometheus::Registry& r) {
  kafka_errors_family_ = &CounterFamily(r, "ratingd_kafka_errors_total",
                                        "Errors reported by librdkafka, by error code");
  lag_family_ = &GaugeFamily(r, "ratingd_consumer_lag_records",
                             "High watermark minus the next offset ratingd will apply");
  last_record_family_ = &GaugeFamily(r, "ratingd_last_processed_record_timestamp_seconds",
                                     "Kafka timestamp of the last record processed");
  assigned_ = &NewGauge(r, "ratingd_assigned_partitions",
                        "Partitions of the results topic assigned to this instance");
  rebalance_family_ =
      &CounterFamily(r, "ratingd_rebalances_total", "Consumer group rebalance events");
}

// The metrics of snapshots and restores.
void Metrics::RegisterSnapshotMetrics(prometheus::Registry& r) {
  snapshot_duration_ = &NewHistogram(r, "ratingd_snapshot_duration_seconds",
                                     "Time the consumer thread spends on one partition's snapshot: "
                                     "its capture and the hand-over of its records to the "
                                     "producer (the serialisation runs on its own thread)");
  snapshot_size_family_ = &GaugeFamily(r, "ratingd_snapshot_size_bytes",
                                       "Bytes the last snapshot wrote to the snapshots topic (its "
                                       "chunks and new de-duplication segments), per partition");
  last_snapshot_ = &NewGauge(r, "ratingd_last_snapshot_timestamp_seconds",
                             "Unix time of the last successful snapshot");
  snapshot_failures_ =
      &NewCounter(r, "ratingd_snapshot_failures_total", "Snapshots that could not be written");
  restore_duration_ = &NewHistogram(r, "ratingd_restore_duration_seconds",
                                    "Time to restore one partition from its snapshot");
}

// The metrics of transactions, restoring and replay.
void Metrics::RegisterTransactionMetrics(prometheus::Registry& r) {
  transactions_family_ = &CounterFamily(
      r, "ratingd_transactions_total", "Kafka transactions ended, by outcome (committed, aborted)");
  commit_duration_ = &NewHistogram(r, "ratingd_transaction_commit_duration_seconds",
                                   "Time to send the offsets and commit one transaction");
  transaction_open_ = &NewHistogram(
      r, "ratingd_transaction_open_seconds",
      "Time from the start of a transaction to the end of its commit (the broker aborts one "
      "open longer than transaction.timeout.ms, 10 s)");
  last_commit_ = &NewGauge(
      r, "ratingd_last_commit_timestamp_seconds",
      "Unix time of the last transaction commit (or commit point with nothing to commit)");
  restoring_ = &NewGauge(r, "ratingd_partitions_restoring",
                         "Assigned partitions being restored or replayed (not yet emitting)");
  replayed_ = &NewCounter(
      r, "ratingd_replayed_records_total",
      "Records replayed into restored state without emitting (already committed before)");
}

// The metrics of pools, their models, suggestions and readiness.
void Metrics::RegisterPoolMetrics(prometheus::Registry& r) {
  pool_agents_family_ = &GaugeFamily(r, "ratingd_pool_agents", "Agents in a pool");
  pool_results_family_ =
      &CounterFamily(r, "ratingd_pool_results_total", "Results applied to a pool");
  exploitability_family_ =
      &GaugeFamily(r, "ratingd_ml_exploitability",
                   "Exploitability of a pool's last maximal-lottery solution (0 = exact)");
  disagreement_family_ = &GaugeFamily(r, "ratingd_rank_disagreement_ratio",
                                      "Normalised Kendall-tau distance between two models' "
                                      "rankings of a pool (a cycle or clone alarm)");
  top_changes_family_ = &CounterFamily(r, "ratingd_top_changes_total",
                                       "Times a pool's rank-1 agent changed, per model");
  ml_refused_ = &NewGauge(r, "ratingd_ml_refused_pools",
                          "Pools above the ml agent limit, for which ml is off");
  suggestions_family_ = &CounterFamily(r, "ratingd_suggestions_total",
                                       "Suggested matches answered by /v1/pools/{pool}/suggest, "
                                       "per strategy (one per pair in a 200 reply)");
  for (const char* strategy : {"uniform", "ucb", "ml"}) {
    suggestions_family_->Add({{"strategy", strategy}});
  }
  auto& throttled = CounterFamily(r, "ratingd_http_throttled_total",
                                  "HTTP requests over the answer budget (--http-max-rps): "
                                  "waited for their turn, or refused with 429");
  waited_ = &throttled.Add({{"outcome", "waited"}});
  refused_ = &throttled.Add({{"outcome", "refused"}});
  event_streams_ =
      &NewGauge(r, "ratingd_event_streams", "Server-Sent Events streams open on the HTTP API");
  top_rating_family_ = &GaugeFamily(r, "ratingd_top_agent_rating",
                                    "Rating of one of a pool's best agents (elo, sco)");
  top_ci_low_family_ = &GaugeFamily(r, "ratingd_top_agent_ci_low",
                                    "Low end of the 95% interval of one of a pool's best agents");
  top_ci_high_family_ = &GaugeFamily(r, "ratingd_top_agent_ci_high",
                                     "High end of the 95% interval of one of a pool's best agents");
  pools_ = &NewGauge(r, "ratingd_pools", "Pools held in memory");
  ready_ = &NewGauge(r, "ratingd_ready", "1 once snapshots are restored and partitions assigned");
}

prometheus::Counter& Metrics::Consumed(const std::string& topic, int32_t partition) {
  return consumed_family_->Add({{"topic", topic}, {"partition", absl::StrCat(partition)}});
}
prometheus::Counter& Metrics::Rejected(const std::string& reason) {
  return rejected_family_->Add({{"reason", reason}});
}
prometheus::Counter& Metrics::DeltasPublished(const std::string& model) {
  return deltas_family_->Add({{"model", model}});
}
prometheus::Counter& Metrics::KafkaError(const std::string& code) {
  return kafka_errors_family_->Add({{"code", code}});
}
prometheus::Gauge& Metrics::ConsumerLag(const std::string& topic, int32_t partition) {
  return lag_family_->Add({{"topic", topic}, {"partition", absl::StrCat(partition)}});
}
prometheus::Gauge& Metrics::LastRecordTimestamp(const std::string& topic, int32_t partition) {
  return last_record_family_->Add({{"topic", topic}, {"partition", absl::StrCat(partition)}});
}
prometheus::Counter& Metrics::Rebalance(const std::string& event) {
  return rebalance_family_->Add({{"event", event}});
}
prometheus::Counter& Metrics::Transactions(const std::string& outcome) {
  return transactions_family_->Add({{"outcome", outcome}});
}
prometheus::Counter& Metrics::Suggestions(const std::string& strategy) {
  return suggestions_family_->Add({{"strategy", strategy}});
}
prometheus::Gauge& Metrics::SnapshotSize(int32_t partition) {
  return snapshot_size_family_->Add({{"partition", absl::StrCat(partition)}});
}

std::string Metrics::PoolLabel(const std::string& pool) {
  auto it = pool_labels_.find(pool);
  if (it != pool_labels_.end()) return it->second;
  const std::string label = pool_labels_.size() < max_pools_ ? pool : "_other";
  pool_labels_.emplace(pool, label);
  return label;
}
prometheus::Gauge& Metrics::PoolAgents(const std::string& pool) {
  return pool_agents_family_->Add({{"pool", PoolLabel(pool)}});
}
prometheus::Counter& Metrics::PoolResults(const std::string& pool) {
  return pool_results_family_->Add({{"pool", PoolLabel(pool)}});
}
prometheus::Gauge& Metrics::MlExploitability(const std::string& pool) {
  return exploitability_family_->Add({{"pool", PoolLabel(pool)}});
}
prometheus::Gauge& Metrics::RankDisagreement(const std::string& pool, const std::string& models) {
  return disagreement_family_->Add({{"pool", PoolLabel(pool)}, {"models", models}});
}
namespace {
template <typename T>
void RemoveIfPresent(prometheus::Family<T>* family, const prometheus::Labels& labels) {
  if (family->Has(labels)) family->Remove(&family->Add(labels));
}
}  // namespace

void Metrics::ForgetPartition(const std::string& topic, int32_t partition) {
  const prometheus::Labels labels = {{"topic", topic}, {"partition", absl::StrCat(partition)}};
  RemoveIfPresent(lag_family_, labels);
  RemoveIfPresent(last_record_family_, labels);
  RemoveIfPresent(snapshot_size_family_, {{"partition", absl::StrCat(partition)}});
}

void Metrics::ForgetPool(const std::string& pool) {
  auto it = pool_labels_.find(pool);
  if (it == pool_labels_.end() || it->second != pool) return;  // "_other" is shared
  RemoveIfPresent(pool_agents_family_, {{"pool", pool}});
  RemoveIfPresent(exploitability_family_, {{"pool", pool}});
  for (const char* models : {"elo_sco", "elo_ml", "sco_ml"}) {
    RemoveIfPresent(disagreement_family_, {{"pool", pool}, {"models", models}});
  }
  for (const char* model : {"elo", "sco"}) SetTopAgents(pool, model, {});
}

void Metrics::SetTopAgents(const std::string& pool, const std::string& model,
                           const std::vector<TopAgent>& top) {
  if (PoolLabel(pool) != pool) return;
  std::vector<std::string>& listed = top_agents_[{pool, model}];
  const auto labels = [&](const std::string& agent) -> prometheus::Labels {
    return {{"pool", pool}, {"model", model}, {"agent", agent}};
  };
  for (const std::string& agent : listed) {
    const bool still =
        std::any_of(top.begin(), top.end(), [&](const TopAgent& t) { return t.agent == agent; });
    if (still) continue;
    RemoveIfPresent(top_rating_family_, labels(agent));
    RemoveIfPresent(top_ci_low_family_, labels(agent));
    RemoveIfPresent(top_ci_high_family_, labels(agent));
  }
  listed.clear();
  for (const TopAgent& t : top) {
    top_rating_family_->Add(labels(t.agent)).Set(t.rating);
    if (t.ci_low) top_ci_low_family_->Add(labels(t.agent)).Set(*t.ci_low);
    if (t.ci_high) top_ci_high_family_->Add(labels(t.agent)).Set(*t.ci_high);
    listed.push_back(t.agent);
  }
  if (listed.empty()) top_agents_.erase({pool, model});
}

prometheus::Counter& Metrics::TopChanges(const std::string& pool, const std::string& model) {
  return top_changes_family_->Add({{"pool", PoolLabel(pool)}, {"model", model}});
}

}  // namespace ratingd
