// ratingd's core without Kafka (docs/ARCHITECTURE.md §1-4): the objects of the record path
// wired together, driven by the consumer loop (Daemon) or, in unit tests, by a fake topic.
// It owns them all; everything here runs on the consumer thread, except the solver and
// snapshot-writer threads inside MlSolver and Committer, and the HTTP threads, which only
// read views() and readiness().
//
//   record ─▶ RecordProcessor ─▶ PartitionRegistry (pools) ─▶ OutputSink (deltas, dead letters)
//                  │                                      ▲
//                  ├─▶ MlSolver ─(solutions)──────────────┤
//                  └─▶ LeaderboardPublisher (due, throttle) ┘
//   Tick ─▶ Committer (snapshots, offsets, commit) ; Restorer on assignment and rollback
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/committer.h"
#include "daemon/ratingd/consumed_record.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/leaderboard_publisher.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/ml_solver.h"
#include "daemon/ratingd/output_sink.h"
#include "daemon/ratingd/partition_registry.h"
#include "daemon/ratingd/readiness.h"
#include "daemon/ratingd/record_processor.h"
#include "daemon/ratingd/restorer.h"
#include "daemon/ratingd/results_input.h"
#include "daemon/ratingd/view_builder.h"
#include "daemon/ratingd/view_store.h"

namespace ratingd {

class Pipeline {
 public:
  // The collaborators must outlive the pipeline. `config` was validated.
  Pipeline(const DaemonConfig& config, OutputSink* sink, ResultsInput* input,
           SnapshotSource* snapshots, Metrics* metrics, const Clock* clock);
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Opens the first transaction.
  void Start();
  // Partitions assigned: restores each and returns where to start reading it (its
  // snapshot's offset); stops early if the state cannot be restored (fatal()).
  std::vector<PartitionOffset> Assign(const std::vector<int32_t>& partitions);
  // Partitions revoked (eager protocol: the generation is still ours): their due
  // leaderboards are published, what was read commits with their snapshots (the next owner
  // replays nothing), and their state is dropped.
  void Revoke(const std::vector<int32_t>& partitions);
  void Process(const ConsumedRecord& record);
  // Whether the consumer loop should end its batch so that the next Tick commits: the open
  // transaction is as old as --commit-interval (or holds its most records), or has as many
  // ml solves in flight as a commit should wait for. Checked between records, it bounds a
  // transaction's age by the commit interval, one record and the solves' bounded work
  // (LivePoolConfig::ml_solve_work), however slow a record is (a pool of 10,000 agents).
  bool CommitWanted() const { return committer_.CommitDue(false) || SolvesSaturated(); }
  bool SolvesSaturated() const { return solver_.in_flight() >= MlSolver::kMaxInFlight; }
  // Between batches: ml solutions, a serialised snapshot round, the commit when due (with
  // its leaderboards and views), metrics and readiness. `input_idle`: the batch ended
  // because nothing more was there to read.
  void Tick(bool input_idle = false);
  // Waits until the snapshot round in flight is serialised (tests: the next Tick then
  // produces it, whatever the serializer thread's speed).
  void WaitSnapshotsSerialized() { committer_.WaitSerialized(); }
  // Graceful shutdown (docs/CONTRACTS.md §4), before the consumer leaves the group: finish
  // the solves (up to drain_timeout), publish, commit with snapshots. Nothing commits after.
  absl::Status Drain();
  // Polls the sink and updates readiness while a call waits (a broker away).
  void KeepObservable();

  void Fail(absl::Status status);
  const absl::Status& fatal() const { return fatal_; }
  bool holds(int32_t partition) const { return registry_.Find(partition) != nullptr; }
  // What the HTTP threads answer the pool list, leaderboards and suggestions from.
  const ViewStore& views() const { return views_; }
  // For the leaderboard cache, which publishes the other instances' pools into it.
  ViewStore& views() { return views_; }
  const Readiness& readiness() const { return readiness_; }
  // Exposed for tests.
  const PartitionRegistry& registry() const { return registry_; }
  const LeaderboardPublisher& leaderboards() const { return leaderboards_; }

 private:
  // Accepts the finished solves and commits (Committer::Commit); false if nothing was
  // committed.
  bool CommitNow(bool with_snapshots, bool segments_ahead = false);
  // Aborts the open transaction and restores every held partition to its last commit,
  // rewinding the input (not those being revoked: their state goes anyway).
  void Rollback();
  // Restores a partition (retrying while the broker is away, for up to 120 s) into the
  // registry; false (fatal() set) if it cannot.
  bool RestoreWithRetry(int32_t partition);
  void UpdatePartitionMetrics();
  void UpdateReadiness();
  // Empty reason: ready.
  void SetReadiness(std::string reason);

  const DaemonConfig& config_;
  const std::string fingerprint_;
  OutputSink* sink_;
  ResultsInput* input_;
  Metrics* metrics_;
  const Clock* clock_;
  absl::Status fatal_;
  std::vector<int32_t> revoking_;  // the partitions a revocation is committing for
  bool stopping_ = false;
  absl::Time last_metrics_ = absl::InfinitePast();

  PartitionRegistry registry_;
  LeaderboardPublisher leaderboards_;
  ViewStore views_;
  ViewBuilder view_builder_;
  Restorer restorer_;
  Readiness readiness_;
  std::string readiness_reason_ = "starting";  // the last one set
  // Below: own threads, joined first (declared last) while the members above exist.
  MlSolver solver_;
  RecordProcessor processor_;
  Committer committer_;
};

}  // namespace ratingd
