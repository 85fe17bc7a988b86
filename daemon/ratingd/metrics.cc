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

}  // namespace

Metrics::Metrics(size_t max_pools, const std::string& librdkafka_version)
    : registry_(std::make_shared<prometheus::Registry>()), max_pools_(max_pools) {
  prometheus::Registry& r = *registry_;
  BuildGauge()
      .Name("ratingd_build_info")
      .Help("Build information; always 1")
      .Register(r)
      .Add({{"version", RATINGD_VERSION}, {"librdkafka_version", librdkafka_version}})
      .Set(1);
  consumed_family_ = &BuildCounter()
                          .Name("ratingd_records_consumed_total")
                          .Help("Records read from the results topic")
                          .Register(r);
  rejected_family_ = &BuildCounter()
                          .Name("ratingd_results_rejected_total")
                          .Help("Invalid records sent to the DLQ, by reason")
                          .Register(r);
  for (const std::string& reason : RejectionReasons()) Rejected(reason);
  applied_ = &BuildCounter()
                  .Name("ratingd_results_applied_total")
                  .Help("Results applied to the models")
                  .Register(r)
                  .Add({});
  duplicate_ = &BuildCounter()
                    .Name("ratingd_results_duplicate_total")
                    .Help("Results skipped because their game id was in the pool's window")
                    .Register(r)
                    .Add({});
  update_duration_ =
      &BuildHistogram()
           .Name("ratingd_update_duration_seconds")
           .Help("Time to apply one result to every model of its pool and compute its deltas")
           .Register(r)
           .Add({}, LatencyBuckets());
  end_to_end_ = &BuildHistogram()
                     .Name("ratingd_end_to_end_latency_seconds")
                     .Help("Result event time to delta acknowledged by the broker")
                     .Register(r)
                     .Add({}, LatencyBuckets());
  ingest_ = &BuildHistogram()
                 .Name("ratingd_ingest_latency_seconds")
                 .Help(
                     "Record timestamp (producer send time) to ratingd reading it: the "
                     "input half of the end-to-end latency")
                 .Register(r)
                 .Add({}, LatencyBuckets());
  ml_solve_ = &BuildHistogram()
                   .Name("ratingd_ml_solve_duration_seconds")
                   .Help("Regret-matching solve of one pool's maximal lottery (off the hot path)")
                   .Register(r)
                   .Add({}, LatencyBuckets());
  deltas_family_ = &BuildCounter()
                        .Name("ratingd_deltas_published_total")
                        .Help("Ranking deltas produced, by model")
                        .Register(r);
  for (ratings::Model m : ratings::kModels) DeltasPublished(std::string(ratings::ModelName(m)));
  leaderboards_ = &BuildCounter()
                       .Name("ratingd_leaderboards_published_total")
                       .Help("Leaderboards produced to the compacted topic")
                       .Register(r)
                       .Add({});
  dlq_ = &BuildCounter()
              .Name("ratingd_dlq_records_total")
              .Help("Records produced to the dead-letter topic")
              .Register(r)
              .Add({});
  kafka_errors_family_ = &BuildCounter()
                              .Name("ratingd_kafka_errors_total")
                              .Help("Errors reported by librdkafka, by error code")
                              .Register(r);
  lag_family_ = &BuildGauge()
                     .Name("ratingd_consumer_lag_records")
                     .Help("High watermark minus the next offset ratingd will apply")
                     .Register(r);
  last_record_family_ = &BuildGauge()
                             .Name("ratingd_last_processed_record_timestamp_seconds")
                             .Help("Kafka timestamp of the last record processed")
                             .Register(r);
  assigned_ = &BuildGauge()
                   .Name("ratingd_assigned_partitions")
                   .Help("Partitions of the results topic assigned to this instance")
                   .Register(r)
                   .Add({});
  rebalance_family_ = &BuildCounter()
                           .Name("ratingd_rebalances_total")
                           .Help("Consumer group rebalance events")
                           .Register(r);
  snapshot_duration_ = &BuildHistogram()
                            .Name("ratingd_snapshot_duration_seconds")
                            .Help("Time to capture and durably write one partition's snapshot")
                            .Register(r)
                            .Add({}, LatencyBuckets());
  snapshot_size_family_ =
      &BuildGauge()
           .Name("ratingd_snapshot_size_bytes")
           .Help(
               "Bytes the last snapshot wrote to the snapshots topic (its chunks and new "
               "de-duplication segments), per partition")
           .Register(r);
  last_snapshot_ = &BuildGauge()
                        .Name("ratingd_last_snapshot_timestamp_seconds")
                        .Help("Unix time of the last successful snapshot")
                        .Register(r)
                        .Add({});
  snapshot_failures_ = &BuildCounter()
                            .Name("ratingd_snapshot_failures_total")
                            .Help("Snapshots that could not be written")
                            .Register(r)
                            .Add({});
  restore_duration_ = &BuildHistogram()
                           .Name("ratingd_restore_duration_seconds")
                           .Help("Time to restore one partition from its snapshot")
                           .Register(r)
                           .Add({}, LatencyBuckets());
  transactions_family_ = &BuildCounter()
                              .Name("ratingd_transactions_total")
                              .Help("Kafka transactions ended, by outcome (committed, aborted)")
                              .Register(r);
  commit_duration_ = &BuildHistogram()
                          .Name("ratingd_transaction_commit_duration_seconds")
                          .Help("Time to send the offsets and commit one transaction")
                          .Register(r)
                          .Add({}, LatencyBuckets());
  last_commit_ = &BuildGauge()
                      .Name("ratingd_last_commit_timestamp_seconds")
                      .Help(
                          "Unix time of the last transaction commit (or commit point with "
                          "nothing to commit)")
                      .Register(r)
                      .Add({});
  restoring_ = &BuildGauge()
                    .Name("ratingd_partitions_restoring")
                    .Help("Assigned partitions being restored or replayed (not yet emitting)")
                    .Register(r)
                    .Add({});
  replayed_ = &BuildCounter()
                   .Name("ratingd_replayed_records_total")
                   .Help(
                       "Records replayed into restored state without emitting (already "
                       "committed before)")
                   .Register(r)
                   .Add({});
  pool_agents_family_ =
      &BuildGauge().Name("ratingd_pool_agents").Help("Agents in a pool").Register(r);
  pool_results_family_ = &BuildCounter()
                              .Name("ratingd_pool_results_total")
                              .Help("Results applied to a pool")
                              .Register(r);
  exploitability_family_ =
      &BuildGauge()
           .Name("ratingd_ml_exploitability")
           .Help("Exploitability of a pool's last maximal-lottery solution (0 = exact)")
           .Register(r);
  disagreement_family_ = &BuildGauge()
                              .Name("ratingd_rank_disagreement_ratio")
                              .Help(
                                  "Normalised Kendall-tau distance between two models' rankings "
                                  "of a pool (a cycle or clone alarm)")
                              .Register(r);
  top_changes_family_ = &BuildCounter()
                             .Name("ratingd_top_changes_total")
                             .Help("Times a pool's rank-1 agent changed, per model")
                             .Register(r);
  ml_refused_ = &BuildGauge()
                     .Name("ratingd_ml_refused_pools")
                     .Help("Pools above the ml agent limit, for which ml is off")
                     .Register(r)
                     .Add({});
  suggestions_family_ = &BuildCounter()
                             .Name("ratingd_suggestions_total")
                             .Help(
                                 "Suggested matches answered by /v1/pools/{pool}/suggest, per "
                                 "strategy (one per pair in a 200 reply)")
                             .Register(r);
  for (const char* strategy : {"uniform", "ucb", "ml"}) {
    suggestions_family_->Add({{"strategy", strategy}});
  }
  top_rating_family_ = &BuildGauge()
                            .Name("ratingd_top_agent_rating")
                            .Help("Rating of one of a pool's best agents (elo, sco)")
                            .Register(r);
  top_ci_low_family_ = &BuildGauge()
                            .Name("ratingd_top_agent_ci_low")
                            .Help("Low end of the 95% interval of one of a pool's best agents")
                            .Register(r);
  top_ci_high_family_ = &BuildGauge()
                             .Name("ratingd_top_agent_ci_high")
                             .Help("High end of the 95% interval of one of a pool's best agents")
                             .Register(r);
  pools_ = &BuildGauge().Name("ratingd_pools").Help("Pools held in memory").Register(r).Add({});
  ready_ = &BuildGauge()
                .Name("ratingd_ready")
                .Help("1 once snapshots are restored and partitions assigned")
                .Register(r)
                .Add({});
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
