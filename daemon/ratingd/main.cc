// ratingd: the streaming rating daemon (docs/ARCHITECTURE.md §1). Flags -> DaemonConfig ->
// Daemon::Run, with the metrics exposer and the HTTP API beside it.
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "daemon/flags.h"
#include "daemon/kafka/client_config.h"
#include "daemon/model_params.h"
#include "daemon/param_table.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon.h"
#include "daemon/ratingd/http_api.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/process_metrics.h"
#include "librdkafka/rdkafkacpp.h"
#include "prometheus/exposer.h"
#include "ratings/model.h"
#include "ratings/online_bootstrap.h"

ABSL_FLAG(std::string, brokers, "127.0.0.1:9092", "Kafka bootstrap servers, host:port[,...]");
ABSL_FLAG(std::string, group, "ratingd", "consumer group id");
ABSL_FLAG(std::string, instance_id, "",
          "stable id of this instance in the group (static membership: a restart takes its "
          "partitions back at once); empty = dynamic membership");
ABSL_FLAG(std::string, results_topic, "ratingd.results", "input topic of GameResults");
ABSL_FLAG(std::string, deltas_topic, "ratingd.deltas", "output topic of RankingDeltas");
ABSL_FLAG(std::string, leaderboards_topic, "ratingd.leaderboards",
          "output topic of Leaderboards (created compacted)");
ABSL_FLAG(std::string, delta_format, "batch",
          "deltas topic format: batch (one RankingDeltaBatch per pool/model and transaction) or "
          "single (one RankingDelta per record, the format before version 2; "
          "docs/CONTRACTS.md §1)");
ABSL_FLAG(std::string, dlq_topic, "ratingd.dlq", "dead-letter topic for invalid records");
ABSL_FLAG(int, topic_partitions, -1,
          "partitions of the topics ratingd creates when missing (-1: broker default)");
ABSL_FLAG(int, topic_replication, -1,
          "replication factor of the topics ratingd creates (-1: broker default)");
ABSL_FLAG(std::string, snapshots_topic, "",
          "compacted topic of the per-partition snapshots, one per consumer group (created with "
          "as many partitions as the results topic); empty: <group>.snapshots");
ABSL_FLAG(std::string, transactional_id, "",
          "Kafka transactional.id, stable per instance (empty: ratingd-<instance-id>, or "
          "ratingd-<host name> without --instance-id)");
ABSL_FLAG(absl::Duration, commit_interval, absl::Milliseconds(250),
          "longest time between transaction commits under a backlog (outputs become visible "
          "to read_committed readers at each commit; light input commits after "
          "--min-commit-interval)");
ABSL_FLAG(absl::Duration, min_commit_interval, absl::Milliseconds(10),
          "once the input has nothing more to read, commit as soon as the transaction is this "
          "old (<= --commit-interval): low latency for light input");
ABSL_FLAG(std::string, snapshot_dir, "",
          "directory of the local snapshot files, a fast path for restarts on this host "
          "(required)");
ABSL_FLAG(absl::Duration, snapshot_interval, absl::Seconds(30),
          "time between snapshots (written to the snapshots topic in the commit)");
ABSL_FLAG(absl::Duration, leaderboard_interval, absl::Seconds(1),
          "minimum time between two leaderboards of one pool and model");
ABSL_FLAG(std::string, metrics_address, "127.0.0.1:9464", "Prometheus /metrics listen address");
ABSL_FLAG(std::string, http_address, "127.0.0.1:8080", "HTTP API listen address");
ABSL_FLAG(absl::Duration, events_interval, absl::Seconds(1),
          "least time between two events of one stream of /v1/events or "
          "/v1/pools/{pool}/events");
ABSL_FLAG(uint64_t, max_event_streams, 256,
          "event streams open at once (each holds an HTTP thread); the next gets 503");
ABSL_FLAG(int32_t, http_nice, 0,
          "nice value (0..19) of the HTTP threads; higher lets ingesting go first when the "
          "cores are busy, at the cost of the answers' latency");
ABSL_FLAG(uint64_t, http_max_rps, 2500,
          "answers a second the HTTP API gives at most, in bursts of a tenth of that (the event "
          "streams apart), an answer over 16 KiB counting once per started 16 KiB: a request "
          "over it waits its turn, up to 1 s, then gets 429; 0 = no bound");
ABSL_FLAG(std::string, models, "elo,sco,ml", "online models to keep, comma-separated");
ABSL_FLAG(uint64_t, dedup_window, 100000, "game ids remembered per pool for de-duplication");
ABSL_FLAG(uint64_t, ml_solve_every, 100,
          "results between two maximal-lottery solves of a pool (ml deltas and leaderboards)");
ABSL_FLAG(uint64_t, ml_solve_work, 500000000,
          "most work of one maximal-lottery solve, in matrix entries (iterations x agents^2): "
          "a pool of n agents is solved for at most this / n^2 iterations, so that a large "
          "pool's solve cannot hold a transaction open (0 = no bound)");
ABSL_FLAG(absl::Duration, ml_solve_min_interval, absl::Seconds(1),
          "least record time between two maximal-lottery solves of a pool, unless its results "
          "grew by a tenth since the last (0 = solve every --ml-solve-every results)");
ABSL_FLAG(uint64_t, delta_max_displaced, 1000,
          "rank-only changes listed per delta (the rest are counted in displaced_omitted)");
ABSL_FLAG(uint32_t, bootstrap_replicas, 16,
          "online bootstrap replicas of elo and sco per pool, for the leaderboards' intervals "
          "(0 = no intervals, else 2..256)");
ABSL_FLAG(uint64_t, provisional_games, 20,
          "agents in fewer results than this are marked provisional in leaderboards");
ABSL_FLAG(absl::Duration, inactive_after, absl::InfiniteDuration(),
          "leave out of leaderboards and rank intervals agents whose last timed result is "
          "more than this before their pool's latest event time (e.g. 720h; default: never)");
ABSL_FLAG(uint64_t, history_points, 128,
          "rating-history points kept per agent and model (elo, sco, glicko2), older ones "
          "thinned; 0 = no history, else at least 4");
ABSL_FLAG(uint64_t, history_max_agents, 10000,
          "pools of more agents than this keep no rating history (their histories are "
          "dropped when they pass it); 0 = no bound");
ABSL_FLAG(double, provisional_rd, 110,
          "glicko2 entries whose rating deviation is above this are marked provisional");
ABSL_FLAG(uint64_t, max_standings, 256, "standings allowed in one result");
ABSL_FLAG(uint64_t, max_agent_id_bytes, 256, "bytes allowed in one agent id");
ABSL_FLAG(uint64_t, dlq_max_bytes, 1000000,
          "bytes of one dead letter (key, headers, value); a longer invalid record is cut and "
          "marked x-ratingd-truncated. Keep below the DLQ topic's max.message.bytes");
ABSL_FLAG(uint64_t, metrics_max_pools, 100,
          "pools with their own metric label; the rest share pool=\"_other\"");
ABSL_FLAG(uint64_t, metrics_top_agents, 10,
          "best agents per pool and model (elo, sco) whose rating and 95% interval are "
          "exported as gauges (0 = none)");
ABSL_FLAG(absl::Duration, drain_timeout, absl::Seconds(7),
          "shutdown budget for solves and the producer flush, before the final snapshot");
ABSL_FLAG(int64_t, ready_max_lag, 10000,
          "/readyz answers 200 once every assigned partition is restored and at most this many "
          "records behind its end (docs/CONTRACTS.md §3)");
ABSL_FLAG(std::string, kafka_config_file, "",
          "librdkafka properties file (key=value lines), e.g. TLS/SASL settings");
// Repeatable, collected by main(): --param MODEL.KEY=VALUE and --kafka KEY=VALUE.
ABSL_FLAG(std::string, param, "",
          "model parameter MODEL.KEY=VALUE (e.g. elo.k=24, sco.tau=0.5, ml.max_agents=1000); "
          "repeatable");
ABSL_FLAG(std::string, kafka, "",
          "librdkafka property KEY=VALUE for consumer and producer (e.g. "
          "security.protocol=SSL); repeatable");

namespace {

// Each open stream holds an HTTP thread: beyond this, threads are the wrong tool.
constexpr uint64_t kMaxEventStreams = 10000;

constexpr char kUsage[] =
    "ratingd --brokers HOST:PORT --snapshot-dir DIR [flags]\n"
    "\n"
    "Consumes GameResults from Kafka, keeps Elo, SCO and maximal-lottery ratings per pool,\n"
    "publishes ranking deltas, leaderboards and dead letters, and serves /metrics and a\n"
    "read-only HTTP API. Flags accept dashes or underscores (--results-topic or\n"
    "--results_topic). SIGTERM/SIGINT stop it gracefully; a second signal exits at once.";

std::atomic<bool> g_stop{false};
std::atomic<int> g_signals{0};

extern "C" void OnSignal(int) {
  if (g_signals.fetch_add(1) >= 1) std::_Exit(130);  // second signal: exit at once
  g_stop = true;
}

int Fail(const std::string& message) {
  std::cerr << "ratingd: " << message << "\n";
  return 2;
}

// The flags as a configuration; InvalidArgument naming the flag to fix.
// The pools' part of the configuration: models, their parameters, limits, replicas.
absl::Status PoolConfigFromFlags(const ratingd::CommandLine& line, ratingd::LivePoolConfig& pool) {
  if (absl::Status s = ratingd::ApplyModelList(absl::GetFlag(FLAGS_models), pool.options);
      !s.ok()) {
    return s;
  }
  pool.options.limits.max_standings = absl::GetFlag(FLAGS_max_standings);
  pool.options.limits.max_agent_id_bytes = absl::GetFlag(FLAGS_max_agent_id_bytes);
  pool.dedup_window = absl::GetFlag(FLAGS_dedup_window);
  pool.ml_solve_every = absl::GetFlag(FLAGS_ml_solve_every);
  pool.ml_solve_min_interval = absl::GetFlag(FLAGS_ml_solve_min_interval);
  pool.ml_solve_work = absl::GetFlag(FLAGS_ml_solve_work);
  if (pool.ml_solve_min_interval < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--ml-solve-min-interval must not be negative");
  }
  pool.max_displaced = absl::GetFlag(FLAGS_delta_max_displaced);
  pool.bootstrap_replicas = absl::GetFlag(FLAGS_bootstrap_replicas);
  pool.provisional_games = absl::GetFlag(FLAGS_provisional_games);
  pool.provisional_rd = absl::GetFlag(FLAGS_provisional_rd);
  pool.options.inactive_after = absl::GetFlag(FLAGS_inactive_after);
  if (pool.options.inactive_after < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--inactive-after must be a duration >= 0, got ",
                     absl::FormatDuration(pool.options.inactive_after)));
  }
  pool.history_points = absl::GetFlag(FLAGS_history_points);
  pool.history_max_agents = absl::GetFlag(FLAGS_history_max_agents);
  if (pool.history_points > 0 && pool.history_points < 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("--history-points must be 0 or at least 4, got ", pool.history_points));
  }
  if (!std::isfinite(pool.provisional_rd) || pool.provisional_rd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--provisional-rd must be a finite number >= 0, got ", pool.provisional_rd));
  }
  if (pool.bootstrap_replicas == 1 || pool.bootstrap_replicas > ratings::kMaxReplicas) {
    return absl::InvalidArgumentError(absl::StrCat("--bootstrap-replicas must be 0 or 2..",
                                                   ratings::kMaxReplicas, ", got ",
                                                   pool.bootstrap_replicas));
  }
  if (pool.dedup_window == 0) {
    return absl::InvalidArgumentError("--dedup-window must be >= 1");
  }
  if (absl::Status s = ratingd::ApplyScopedModelParams(line.params, pool.options); !s.ok())
    return s;
  return absl::OkStatus();
}

absl::StatusOr<ratingd::DaemonConfig> ConfigFromFlags(const ratingd::CommandLine& line) {
  ratingd::DaemonConfig config;
  config.brokers = absl::GetFlag(FLAGS_brokers);
  config.group = absl::GetFlag(FLAGS_group);
  config.instance_id = absl::GetFlag(FLAGS_instance_id);
  config.results_topic = absl::GetFlag(FLAGS_results_topic);
  config.deltas_topic = absl::GetFlag(FLAGS_deltas_topic);
  config.leaderboards_topic = absl::GetFlag(FLAGS_leaderboards_topic);
  config.dlq_topic = absl::GetFlag(FLAGS_dlq_topic);
  if (const std::string format = absl::GetFlag(FLAGS_delta_format); format == "batch") {
    config.delta_format = ratingd::DaemonConfig::DeltaFormat::kBatch;
  } else if (format == "single") {
    config.delta_format = ratingd::DaemonConfig::DeltaFormat::kSingle;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--delta-format: '", format, "' is not batch or single"));
  }
  config.dlq_max_bytes = absl::GetFlag(FLAGS_dlq_max_bytes);
  config.topic_partitions = absl::GetFlag(FLAGS_topic_partitions);
  config.topic_replication = absl::GetFlag(FLAGS_topic_replication);
  config.snapshot_dir = absl::GetFlag(FLAGS_snapshot_dir);
  config.snapshots_topic = absl::GetFlag(FLAGS_snapshots_topic);
  if (config.snapshots_topic.empty()) config.snapshots_topic = config.group + ".snapshots";
  config.transactional_id = absl::GetFlag(FLAGS_transactional_id);
  config.commit_interval = absl::GetFlag(FLAGS_commit_interval);
  config.min_commit_interval = absl::GetFlag(FLAGS_min_commit_interval);
  if (const char* every = std::getenv("RATINGD_FAULT_ABORT_EVERY"); every != nullptr) {
    if (!absl::SimpleAtoi(every, &config.fault_abort_every)) {
      return absl::InvalidArgumentError(
          "RATINGD_FAULT_ABORT_EVERY must be a number of transactions");
    }
  }
  config.snapshot_interval = absl::GetFlag(FLAGS_snapshot_interval);
  config.leaderboard_interval = absl::GetFlag(FLAGS_leaderboard_interval);
  config.drain_timeout = absl::GetFlag(FLAGS_drain_timeout);
  config.ready_max_lag = absl::GetFlag(FLAGS_ready_max_lag);
  config.metrics_max_pools = absl::GetFlag(FLAGS_metrics_max_pools);
  config.metrics_top_agents = absl::GetFlag(FLAGS_metrics_top_agents);
  if (absl::Status s = PoolConfigFromFlags(line, config.pool); !s.ok()) return s;
  absl::StatusOr<ratingd::KafkaProperties> properties =
      ratingd::ParseKafkaProperties(line.kafka, absl::GetFlag(FLAGS_kafka_config_file));
  if (!properties.ok()) return properties.status();
  config.kafka = *std::move(properties);
  if (absl::Status s = ratingd::ValidateDaemonConfig(config); !s.ok()) return s;
  return config;
}

// The event streams' options from the flags; InvalidArgument naming the flag.
absl::StatusOr<ratingd::EventOptions> EventOptionsFromFlags() {
  ratingd::EventOptions options;
  options.interval = absl::GetFlag(FLAGS_events_interval);
  const uint64_t streams = absl::GetFlag(FLAGS_max_event_streams);
  if (options.interval < absl::ZeroDuration() || options.interval > absl::Hours(1)) {
    return absl::InvalidArgumentError(absl::StrCat("--events-interval must be in [0, 1h] (got ",
                                                   absl::FormatDuration(options.interval), ")"));
  }
  if (streams < 1 || streams > kMaxEventStreams) {
    return absl::InvalidArgumentError(absl::StrCat("--max-event-streams must be in [1, ",
                                                   kMaxEventStreams, "] (got ", streams, ")"));
  }
  options.max_streams = static_cast<size_t>(streams);
  return options;
}

// The HTTP API's answer budget from --http-max-rps (ARCHITECTURE.md §3).
ratingd::ReadBudgetOptions ReadBudgetFromFlags() {
  const auto rate = static_cast<double>(absl::GetFlag(FLAGS_http_max_rps));
  return {.rate = rate,
          .burst = std::max(1.0, rate / 10),
          .max_wait = absl::Seconds(1),
          .unit_bytes = ratingd::kAnswerBudgetUnitBytes};
}

// Metrics, the daemon and its HTTP API until a signal: the exit code.
int Serve(const ratingd::DaemonConfig& config) {
  const absl::StatusOr<ratingd::EventOptions> events = EventOptionsFromFlags();
  if (!events.ok()) return Fail(std::string(events.status().message()));
  ratingd::Metrics metrics(config.metrics_max_pools, RdKafka::version_str());
  std::unique_ptr<prometheus::Exposer> exposer;
  try {
    exposer = std::make_unique<prometheus::Exposer>(absl::GetFlag(FLAGS_metrics_address));
  } catch (const std::exception& e) {
    return Fail(absl::StrCat("--metrics-address=", absl::GetFlag(FLAGS_metrics_address),
                             ": cannot listen (", e.what(), ")"));
  }
  exposer->RegisterCollectable(metrics.registry());
  exposer->RegisterCollectable(
      std::make_shared<ratingd::ProcessMetrics>(ratingd::SystemClock().Now()));
  absl::StatusOr<std::unique_ptr<ratingd::Daemon>> daemon =
      ratingd::Daemon::Create(config, &metrics);
  if (!daemon.ok()) return Fail(std::string(daemon.status().message()));
  auto http =
      ratingd::HttpApi::Start(absl::GetFlag(FLAGS_http_address),
                              {.views = &(*daemon)->views(),
                               .readiness = &(*daemon)->readiness(),
                               .config = &(*daemon)->config(),
                               .metrics = &metrics},
                              *events, absl::GetFlag(FLAGS_http_nice), ReadBudgetFromFlags());
  if (!http.ok()) return Fail(std::string(http.status().message()));
  std::signal(SIGTERM, OnSignal);
  std::signal(SIGINT, OnSignal);
  std::fprintf(
      stderr,
      "ratingd: metrics on http://127.0.0.1:%d/metrics, API on http://127.0.0.1:%d/v1/pools\n",
      exposer->GetListeningPorts().at(0), (*http)->port());
  absl::Status run = (*daemon)->Run(g_stop);
  http->reset();
  if (!run.ok()) {
    std::cerr << "ratingd: " << run.message() << "\n";
    return 1;
  }
  std::cerr << "ratingd: stopped cleanly\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Keep freed memory in the heap instead of returning it to the kernel: librdkafka's fetch
  // buffers and the delta batches are large blocks allocated and freed all the time, and
  // with glibc's defaults each came back as fresh mmap'ed, zero-filled pages (page faults
  // were ~4% of ratingd's CPU under a backlog). A/B runs: docs/BENCHMARKS.md, "Rows 9 and 10
  // together".
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
  const ratingd::CommandLine line =
      ratingd::ParseCommandLine(argc, argv, kUsage, "daemon/ratingd/");
  if (line.positional.size() > 1) {
    return Fail(absl::StrCat("unexpected argument '", line.positional[1], "'"));
  }
  absl::StatusOr<ratingd::DaemonConfig> config = ConfigFromFlags(line);
  if (!config.ok()) return Fail(std::string(config.status().message()));
  return Serve(*config);
}
