#include "daemon/ratingd/pipeline.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/log.h"

namespace ratingd {

Pipeline::Pipeline(const DaemonConfig& config, OutputSink* sink, ResultsInput* input,
                   SnapshotSource* snapshots, Metrics* metrics, const Clock* clock)
    : config_(config),
      fingerprint_(ParamsFingerprint(config.pool)),
      sink_(sink),
      input_(input),
      metrics_(metrics),
      clock_(clock),
      leaderboards_(config.leaderboard_interval, clock, metrics, config.metrics_top_agents),
      view_builder_(&views_),
      restorer_(config, fingerprint_, input, snapshots, metrics, clock),
      solver_(metrics),
      processor_(config, &registry_, sink, &leaderboards_, &view_builder_, &solver_, metrics,
                 clock),
      committer_(config, fingerprint_, &registry_, sink, metrics, clock) {}

void Pipeline::Start() {
  if (absl::Status s = committer_.Begin(); !s.ok()) Fail(s);
}

void Pipeline::Fail(absl::Status status) {
  if (fatal_.ok() && !status.ok()) {
    Log(std::string(status.message()));
    fatal_ = std::move(status);
  }
}

std::vector<PartitionOffset> Pipeline::Assign(const std::vector<int32_t>& partitions) {
  std::vector<PartitionOffset> starts;
  SetReadiness(absl::StrCat("restoring: ", partitions.size(), " partitions assigned"));
  metrics_->partitions_restoring().Set(static_cast<double>(partitions.size()));
  for (int32_t p : partitions) {
    if (!fatal_.ok() || !RestoreWithRetry(p)) break;
    starts.push_back({p, registry_.Find(p)->next_offset});
  }
  UpdateReadiness();
  metrics_->assigned_partitions().Set(static_cast<double>(registry_.size()));
  return starts;
}

bool Pipeline::RestoreWithRetry(int32_t partition) {
  const absl::Time deadline = clock_->Now() + absl::Seconds(120);
  while (true) {
    absl::StatusOr<PartitionState> restored = restorer_.Restore(partition);
    if (restored.ok()) {
      const PartitionState& state = registry_.Insert(*std::move(restored));
      // Committed state (maybe older than its committed offset): its views are published at
      // once, unless it has some already (a rollback).
      view_builder_.PublishRestored(registry_, partition, clock_->Now());
      // At its committed point already: its leaderboards may lag its deltas (a handover
      // within the throttle interval, a crash); publish them once.
      if (!state.replaying()) processor_.CaughtUp(state);
      return true;
    }
    const absl::Status& s = restored.status();
    if (absl::IsInvalidArgument(s) || absl::IsFailedPrecondition(s) || clock_->Now() > deadline) {
      // Parameters or topics that do not fit (the operator must act), or a broker away
      // for too long: exit non-zero, the supervisor restarts.
      Fail(absl::Status(s.code(), absl::StrCat("partition ", partition, ": ", s.message())));
      return false;
    }
    Log(absl::StrCat("partition ", partition, ": restore failed, retrying: ", s.message()));
    sink_->Poll(absl::Milliseconds(500));
  }
}

void Pipeline::Revoke(const std::vector<int32_t>& partitions) {
  if (!stopping_) {
    revoking_ = partitions;
    solver_.WaitIdle();
    processor_.AcceptMlSolutions();
    leaderboards_.ForcePartitions(partitions);
    CommitNow(true);
    revoking_.clear();
  }
  for (int32_t p : partitions) {
    if (const PartitionState* state = registry_.Find(p)) processor_.Forget(*state);
    registry_.Drop(p);
  }
  view_builder_.PublishHeld(registry_);
  UpdateReadiness();
  metrics_->assigned_partitions().Set(static_cast<double>(registry_.size()));
}

void Pipeline::Process(const ConsumedRecord& record) {
  if (!registry_.Find(record.partition)) return;
  committer_.CountRecord();
  if (absl::Status s = processor_.Process(record); !s.ok()) Fail(s);
}

void Pipeline::Tick(bool input_idle) {
  sink_->Poll(absl::ZeroDuration());
  processor_.AcceptMlSolutions();
  if (fatal_.ok()) committer_.ProduceSerialized(/*wait=*/false);
  const bool due = committer_.CommitDue(input_idle) || SolvesSaturated();
  if (due && CommitNow(false, /*segments_ahead=*/input_idle) && committer_.SnapshotsDue()) {
    committer_.StartSnapshots();
  }
  committer_.FinishSnapshotWrites();
  UpdatePartitionMetrics();
  UpdateReadiness();
}

bool Pipeline::CommitNow(bool with_snapshots, bool segments_ahead) {
  if (!fatal_.ok() || !committer_.open()) return false;
  // Every ml solve scheduled by this transaction's results publishes its delta in it.
  solver_.WaitIdle();
  processor_.AcceptMlSolutions();
  processor_.FlushDeltas();
  // The transaction's stamp: its leaderboards carry it, and the views of what it changed,
  // published once it has committed.
  const absl::Time stamp = clock_->Now();
  leaderboards_.Publish(registry_, *sink_, stopping_, stamp);
  view_builder_.Prepare(registry_, stamp);
  absl::Status s = committer_.Commit(with_snapshots, segments_ahead);
  if (s.ok()) view_builder_.Commit();
  if (absl::IsAborted(s)) {
    Log(absl::StrCat("commit: ", s.message(), ": aborting the transaction"));
    Rollback();
    return false;
  }
  Fail(s);
  return s.ok();
}

void Pipeline::Rollback() {
  if (absl::Status s = committer_.Abort(); !s.ok()) {
    Fail(absl::InternalError(absl::StrCat("the transaction could not be aborted: ", s.message())));
    return;
  }
  // Nothing of the aborted transaction is visible; forget what it changed by restoring
  // every partition again from its last committed point (snapshot + replay). Partitions
  // being revoked are not restored: their state goes anyway.
  std::vector<int32_t> held;
  for (int32_t p : registry_.Held()) {
    if (std::find(revoking_.begin(), revoking_.end(), p) == revoking_.end()) held.push_back(p);
  }
  solver_.WaitIdle();
  solver_.TakeSolved();  // of the state being dropped
  processor_.DropDeltas();
  leaderboards_.ClearDue();
  view_builder_.Abort();
  if (!held.empty()) {
    SetReadiness("rolling back an aborted transaction");
    metrics_->partitions_restoring().Set(static_cast<double>(held.size()));
    for (int32_t p : held) {
      registry_.Drop(p);
      if (!RestoreWithRetry(p)) return;
      if (absl::Status s = input_->Seek(p, registry_.Find(p)->next_offset); !s.ok()) {
        Fail(absl::InternalError(
            absl::StrCat("partition ", p, ": rewind after the abort: ", s.message())));
        return;
      }
    }
    Log(absl::StrCat("rolled back: ", held.size(), " partitions restore from their last commit"));
  }
  Fail(committer_.Begin());
}

absl::Status Pipeline::Drain() {
  Log(fatal_.ok() ? "stopping: draining" : std::string(fatal_.message()));
  stopping_ = true;
  UpdateReadiness();
  const absl::Time deadline = clock_->Now() + config_.drain_timeout;
  bool solved = false;
  while (!(solved = solver_.WaitIdleFor(absl::Milliseconds(10))) && clock_->Now() < deadline) {
    KeepObservable();
  }
  processor_.AcceptMlSolutions();
  absl::Status status = fatal_;
  if (fatal_.ok()) {
    committer_.set_stopping();
    if (!solved) {
      // No commit: the open transaction is aborted, and a restart replays it.
      Log("solves still running: aborting the open transaction (a restart replays it)");
      if (absl::Status s = committer_.Abort(); !s.ok()) Log(std::string(s.message()));
    } else if (!CommitNow(true)) {
      status =
          fatal_.ok()
              ? absl::UnavailableError("the final transaction did not commit; a restart replays it")
              : fatal_;
    }
  }
  committer_.WaitSnapshotWrites();
  committer_.FinishSnapshotWrites();
  return status;
}

void Pipeline::KeepObservable() {
  sink_->Poll(absl::ZeroDuration());
  UpdateReadiness();
}

void Pipeline::UpdatePartitionMetrics() {
  const absl::Time now = clock_->Now();
  if (now - last_metrics_ < absl::Seconds(1)) return;
  last_metrics_ = now;
  size_t pools = 0, refused = 0;
  for (const auto& [p, state] : registry_.partitions()) {
    if (const std::optional<WatermarkOffsets> w = input_->Watermarks(p)) {
      metrics_->ConsumerLag(config_.results_topic, p)
          .Set(static_cast<double>(state.Lag(w->low, w->high)));
    }
    pools += state.pools.size();
    for (const auto& [name, pool] : state.pools) {
      refused += pool->pool().ml() && pool->pool().ml()->refused();
    }
  }
  metrics_->pools().Set(static_cast<double>(pools));
  metrics_->ml_refused_pools().Set(static_cast<double>(refused));
  metrics_->assigned_partitions().Set(static_cast<double>(registry_.size()));
}

void Pipeline::UpdateReadiness() {
  metrics_->partitions_restoring().Set(static_cast<double>(registry_.replaying()));
  std::string reason;
  if (!fatal_.ok()) {
    reason = absl::StrCat("stopping after an error: ", fatal_.message());
  } else if (stopping_) {
    reason = "stopping";
  } else if (registry_.empty()) {
    reason = absl::StrCat("no partition of ", config_.results_topic,
                          " is assigned to this instance (consumer group '", config_.group, "')");
  } else if (const size_t replaying = registry_.replaying(); replaying > 0) {
    reason = absl::StrCat("restoring: ", replaying, " partitions are replaying committed records");
  } else {
    for (const auto& [p, state] : registry_.partitions()) {
      const std::optional<WatermarkOffsets> w = input_->Watermarks(p);
      if (!w.has_value()) {
        reason = absl::StrCat("catching up: partition ", p, "'s end offset is not known yet");
        break;
      }
      if (const int64_t lag = state.Lag(w->low, w->high); lag > config_.ready_max_lag) {
        reason = absl::StrCat("catching up: partition ", p, " is ", lag,
                              " records behind (--ready-max-lag=", config_.ready_max_lag, ")");
        break;
      }
    }
    if (reason.empty() && !views_.remote_caught_up()) {
      reason = absl::StrCat("reading ", config_.leaderboards_topic,
                            " to its end (the pools of the other instances)");
    }
  }
  SetReadiness(std::move(reason));
}

void Pipeline::SetReadiness(std::string reason) {
  if (reason == readiness_reason_) return;
  readiness_reason_ = reason;
  const bool ready = reason.empty();
  metrics_->ready().Set(ready ? 1 : 0);
  readiness_.Set(ready, std::move(reason));
}

}  // namespace ratingd
