// ratingd's Prometheus metrics (docs/CONTRACTS.md §3). Names follow the
// Prometheus rules (base units, _total, _seconds, _bytes); pool labels are bounded: the
// first `max_pools` pools seen get their own label, the rest share pool="_other".
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace ratingd {

class Metrics {
 public:
  // `librdkafka_version` labels ratingd_build_info (the Kafka-free core does not link it).
  explicit Metrics(size_t max_pools, const std::string& librdkafka_version = "");
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

  // Records.
  prometheus::Counter& Consumed(const std::string& topic, int32_t partition);
  prometheus::Counter& Rejected(const std::string& reason);
  prometheus::Counter& applied() { return *applied_; }
  prometheus::Counter& duplicate() { return *duplicate_; }
  prometheus::Histogram& update_duration() { return *update_duration_; }
  prometheus::Histogram& end_to_end_latency() { return *end_to_end_; }
  prometheus::Histogram& ingest_latency() { return *ingest_; }
  prometheus::Histogram& ml_solve_duration() { return *ml_solve_; }
  prometheus::Counter& DeltasPublished(const std::string& model);
  prometheus::Counter& leaderboards_published() { return *leaderboards_; }
  prometheus::Counter& dlq_records() { return *dlq_; }
  prometheus::Counter& KafkaError(const std::string& code);
  // Partitions.
  prometheus::Gauge& ConsumerLag(const std::string& topic, int32_t partition);
  prometheus::Gauge& LastRecordTimestamp(const std::string& topic, int32_t partition);
  prometheus::Gauge& assigned_partitions() { return *assigned_; }
  prometheus::Counter& Rebalance(const std::string& event);
  // Snapshots.
  prometheus::Histogram& snapshot_duration() { return *snapshot_duration_; }
  prometheus::Gauge& SnapshotSize(int32_t partition);
  prometheus::Gauge& last_snapshot() { return *last_snapshot_; }
  prometheus::Counter& snapshot_failures() { return *snapshot_failures_; }
  prometheus::Histogram& restore_duration() { return *restore_duration_; }
  // Transactions: outcome committed or aborted.
  prometheus::Counter& Transactions(const std::string& outcome);
  prometheus::Histogram& commit_duration() { return *commit_duration_; }
  prometheus::Histogram& transaction_open() { return *transaction_open_; }
  // Unix time of the last commit (or of the last commit point with nothing to commit):
  // frozen while commits cannot complete, e.g. during a broker outage.
  prometheus::Gauge& last_commit() { return *last_commit_; }
  prometheus::Gauge& partitions_restoring() { return *restoring_; }
  prometheus::Counter& replayed_records() { return *replayed_; }
  // Pools (bounded labels).
  std::string PoolLabel(const std::string& pool);
  prometheus::Gauge& PoolAgents(const std::string& pool);
  prometheus::Counter& PoolResults(const std::string& pool);
  prometheus::Gauge& MlExploitability(const std::string& pool);
  prometheus::Gauge& RankDisagreement(const std::string& pool, const std::string& models);
  prometheus::Counter& TopChanges(const std::string& pool, const std::string& model);
  // A pool's best agents of one model, best first, with their 95% intervals when the pool
  // keeps replicas (docs/MODELS.md §5.6): the gauges ratingd_top_agent_rating, _ci_low and
  // _ci_high by pool, model and agent. Agents no longer among them lose their gauges. Pools
  // beyond max_pools (label "_other") get none: their agents cannot share one label.
  struct TopAgent {
    std::string agent;
    double rating = 0.0;
    std::optional<double> ci_low;
    std::optional<double> ci_high;
  };
  void SetTopAgents(const std::string& pool, const std::string& model,
                    const std::vector<TopAgent>& top);
  prometheus::Gauge& ml_refused_pools() { return *ml_refused_; }
  // HTTP: suggestions answered, by strategy (uniform, ucb, ml); any thread.
  prometheus::Counter& Suggestions(const std::string& strategy);
  // HTTP: requests over the answer budget (--http-max-rps), `waited` for their turn or
  // `refused` with 429; any thread.
  prometheus::Counter& Throttled(bool refused) { return refused ? *refused_ : *waited_; }
  // HTTP: event streams open (/v1/events, /v1/pools/{pool}/events); any thread.
  prometheus::Gauge& event_streams() { return *event_streams_; }
  // Removes the gauges of a partition or pool handed to another instance, so that a
  // frozen value (a lag, an agent count) is not summed or alerted on beside the new
  // owner's. Counters stay: they are per instance and only ever summed as rates.
  void ForgetPartition(const std::string& topic, int32_t partition);
  void ForgetPool(const std::string& pool);
  prometheus::Gauge& pools() { return *pools_; }
  prometheus::Gauge& ready() { return *ready_; }

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  size_t max_pools_;
  absl::flat_hash_map<std::string, std::string> pool_labels_;

  // The constructor's steps, each registering one group of metrics in `r`.
  void RegisterResultMetrics(prometheus::Registry& r, const std::string& librdkafka_version);
  void RegisterKafkaMetrics(prometheus::Registry& r);
  void RegisterSnapshotMetrics(prometheus::Registry& r);
  void RegisterTransactionMetrics(prometheus::Registry& r);
  void RegisterPoolMetrics(prometheus::Registry& r);

  prometheus::Family<prometheus::Counter>* consumed_family_;
  prometheus::Family<prometheus::Counter>* rejected_family_;
  prometheus::Family<prometheus::Counter>* deltas_family_;
  prometheus::Family<prometheus::Counter>* kafka_errors_family_;
  prometheus::Family<prometheus::Gauge>* lag_family_;
  prometheus::Family<prometheus::Gauge>* last_record_family_;
  prometheus::Family<prometheus::Counter>* rebalance_family_;
  prometheus::Family<prometheus::Gauge>* snapshot_size_family_;
  prometheus::Family<prometheus::Gauge>* pool_agents_family_;
  prometheus::Family<prometheus::Counter>* pool_results_family_;
  prometheus::Family<prometheus::Gauge>* exploitability_family_;
  prometheus::Family<prometheus::Gauge>* disagreement_family_;
  prometheus::Family<prometheus::Counter>* top_changes_family_;
  prometheus::Family<prometheus::Counter>* transactions_family_;
  prometheus::Family<prometheus::Counter>* suggestions_family_;
  prometheus::Counter* waited_;
  prometheus::Counter* refused_;
  prometheus::Family<prometheus::Gauge>* top_rating_family_;
  prometheus::Family<prometheus::Gauge>* top_ci_low_family_;
  prometheus::Family<prometheus::Gauge>* top_ci_high_family_;
  // The agents SetTopAgents last set, by (pool, model).
  absl::flat_hash_map<std::pair<std::string, std::string>, std::vector<std::string>> top_agents_;

  prometheus::Counter* applied_;
  prometheus::Counter* duplicate_;
  prometheus::Histogram* update_duration_;
  prometheus::Histogram* end_to_end_;
  prometheus::Histogram* ingest_;
  prometheus::Histogram* ml_solve_;
  prometheus::Counter* leaderboards_;
  prometheus::Counter* dlq_;
  prometheus::Gauge* assigned_;
  prometheus::Gauge* event_streams_;
  prometheus::Histogram* snapshot_duration_;
  prometheus::Gauge* last_snapshot_;
  prometheus::Counter* snapshot_failures_;
  prometheus::Histogram* restore_duration_;
  prometheus::Histogram* commit_duration_;
  prometheus::Histogram* transaction_open_;
  prometheus::Gauge* last_commit_;
  prometheus::Gauge* restoring_;
  prometheus::Counter* replayed_;
  prometheus::Gauge* ml_refused_;
  prometheus::Gauge* pools_;
  prometheus::Gauge* ready_;
};

}  // namespace ratingd
