// ratingd's configuration, from its flags (daemon/ratingd/main.cc). Kafka-free: the record
// path's objects take the parts they need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "daemon/ratingd/live_pool.h"

namespace ratingd {

struct DaemonConfig {
  std::string brokers = "127.0.0.1:9092";
  std::string group = "ratingd";
  // Static group membership (group.instance.id): a restarted instance takes its partitions
  // back at once instead of waiting for the session timeout. Empty: dynamic membership.
  std::string instance_id;
  std::string results_topic = "ratingd.results";
  std::string deltas_topic = "ratingd.deltas";
  std::string leaderboards_topic = "ratingd.leaderboards";
  std::string dlq_topic = "ratingd.dlq";
  // The deltas topic's format (docs/CONTRACTS.md §1): kBatch (version 2) sends one
  // RankingDeltaBatch per (pool, model) and transaction; kSingle (version 1) one
  // RankingDelta per record.
  enum class DeltaFormat { kSingle, kBatch };
  DeltaFormat delta_format = DeltaFormat::kBatch;
  // A dead letter's key, headers and value stay within this many bytes; a longer input
  // record is cut (header x-ratingd-truncated). A record the DLQ topic refused would abort
  // every transaction in turn, so keep this below the topic's max.message.bytes.
  size_t dlq_max_bytes = 1000000;
  std::string snapshots_topic = "ratingd.snapshots";  // compacted, one per consumer group
  // Stable per instance (a restarted instance fences its predecessor's open transaction);
  // empty: "ratingd-" + instance_id, or + the host name without an instance id.
  std::string transactional_id;
  // A transaction commits at the latest commit_interval after it began and, once the input
  // has nothing more to read, as soon as min_commit_interval has passed (low latency when
  // the input is light; the full interval under a backlog).
  absl::Duration commit_interval = absl::Milliseconds(100);
  absl::Duration min_commit_interval = absl::Milliseconds(10);
  // Fault injection for tests (environment RATINGD_FAULT_ABORT_EVERY): abort every N-th
  // transaction instead of committing it, exercising rollback and rewind. 0 = off.
  uint64_t fault_abort_every = 0;
  int topic_partitions = -1;   // for topics ratingd creates; -1 = broker default
  int topic_replication = -1;  // likewise
  std::string snapshot_dir;
  absl::Duration snapshot_interval = absl::Seconds(30);
  absl::Duration leaderboard_interval = absl::Seconds(1);
  LivePoolConfig pool = {};
  // --kafka passthrough (KafkaProperties), applied to consumer and producer.
  std::vector<std::pair<std::string, std::string>> kafka = {};
  size_t metrics_max_pools = 100;
  // Best agents per pool and model (elo, sco) with gauges of their rating and interval.
  size_t metrics_top_agents = 10;
  absl::Duration drain_timeout = absl::Seconds(7);  // shutdown budget before the snapshot
  // Readiness (docs/CONTRACTS.md §3): every held partition's consumer lag at most this.
  int64_t ready_max_lag = 10'000;
};

// Checks what can be checked without a broker (names, intervals, model parameters) and
// creates the snapshot directory. InvalidArgument naming the flag to fix.
absl::Status ValidateDaemonConfig(const DaemonConfig& config);

}  // namespace ratingd
