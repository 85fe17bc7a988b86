// The record path of ratingd (docs/ARCHITECTURE.md §2), without Kafka: one record of the
// results topic is decoded, de-duplicated and applied to its pool, and its outputs go to the
// sink: a delta per model, a dead letter for an invalid record, a scheduled ml solve, and
// the leaderboards marked due. Records below a partition's replay point (committed before)
// rebuild the state and emit nothing. Consumer thread only.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/consumed_record.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/delta_batcher.h"
#include "daemon/ratingd/leaderboard_publisher.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/ml_solver.h"
#include "daemon/ratingd/output_sink.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/result_decoder.h"
#include "daemon/ratingd/view_builder.h"
#include "ratingd/v1/delta.pb.h"

namespace ratingd {

class RecordProcessor {
 public:
  // Every change to a pool is marked in `leaderboards` (when emitted) and `views` (always:
  // a replayed change is a committed one).
  RecordProcessor(const DaemonConfig& config, PartitionRegistry* registry, OutputSink* sink,
                  LeaderboardPublisher* leaderboards, ViewBuilder* views, MlSolver* solver,
                  Metrics* metrics, const Clock* clock);

  // Processes one record of a held partition (a record of another partition, or below the
  // partition's position, is ignored). An error only if the state cannot go on (a pool that
  // cannot be created): the daemon stops.
  absl::Status Process(const ConsumedRecord& record);
  // Accepts the finished ml solves into their pools and publishes their deltas.
  void AcceptMlSolutions();
  // Every pool of the partition reached its committed point: its leaderboards are due.
  void CaughtUp(const PartitionState& partition);
  // The partition's pools and their metric handles leave this instance.
  void Forget(const PartitionState& partition);
  // Sends the batched deltas (before a commit); drops them (after an abort).
  void FlushDeltas() { batcher_.Flush(); }
  void DropDeltas() { batcher_.Clear(); }

 private:
  void Apply(const ConsumedRecord& record, const DecodedResult& decoded, LivePool& pool,
             PartitionState& partition, bool emit);
  void SendToDlq(const ConsumedRecord& record, const std::string& reason, const std::string& why);
  void PublishDelta(int32_t partition, const v1::RankingDelta& delta, ratings::Model model);
  prometheus::Counter& DeltasPublished(ratings::Model model);
  void UpdateMlGauges(const LivePool& pool);

  const DaemonConfig& config_;
  PartitionRegistry* registry_;
  OutputSink* sink_;
  LeaderboardPublisher* leaderboards_;
  ViewBuilder* views_;
  MlSolver* solver_;
  Metrics* metrics_;
  const Clock* clock_;

  // Metric handles looked up once (a Family::Add per record costs a lock and a hash).
  struct PartitionCounters {
    prometheus::Counter* consumed = nullptr;
    prometheus::Gauge* last_timestamp = nullptr;
  };
  absl::flat_hash_map<int32_t, PartitionCounters> partition_counters_;
  absl::flat_hash_map<std::string, prometheus::Counter*> pool_results_;
  std::array<prometheus::Counter*, ratings::kModels.size()> deltas_published_ = {};
  ResultDecoder decoder_;
  DeltaBatcher batcher_;
  // ratingd_update_duration_seconds observes one result in this many (docs/CONTRACTS.md §3).
  static constexpr uint64_t kUpdateTimingSample = 16;
  uint64_t applied_ = 0;
  std::vector<v1::RankingDelta> deltas_scratch_;  // reused per record
  std::string bytes_scratch_;
};

}  // namespace ratingd
