// Daemon: partitions coming and going (restore on assignment, snapshot on revocation) and
// the periodic snapshots (DESIGN §8). Runs on the consumer thread; files are written by the
// writer thread.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/daemon.h"
#include "daemon/daemon_log.h"

namespace ratingd {

void Daemon::Snapshot(bool wait, bool sync) {
  if (wait) {
    solver_->WaitIdle();
    DrainMlSolutions();
  }
  last_snapshot_ = absl::Now();
  // Every delta and dead letter of the results a snapshot covers must be on the broker
  // first: a restart resumes after the snapshot and would never send them again.
  producer_->flush(5000);
  if (producer_->outq_len() > 0) {
    Log(absl::StrCat("snapshot postponed: ", producer_->outq_len(),
                     " messages not yet acknowledged by the broker"));
    return;
  }
  for (const auto& [p, state] : partitions_) {
    if (pending_ml_[p] > 0) continue;  // not at a consistent point; next time
    const auto start = std::chrono::steady_clock::now();
    auto snapshot = std::make_shared<v1::Snapshot>(state.ToSnapshot(fingerprint_));
    snapshot->set_written_unix_ms(absl::ToUnixMillis(absl::Now()));
    const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, p);
    const int32_t partition = p;
    const int64_t next_offset = state.next_offset;
    auto write = [this, snapshot, path, partition, next_offset, start] {
      absl::StatusOr<size_t> bytes = WriteSnapshotFile(path, *snapshot);
      const absl::Duration took = absl::FromChrono(std::chrono::steady_clock::now() - start);
      std::lock_guard<std::mutex> lock(written_mu_);
      written_.push_back({partition, next_offset, std::move(bytes), took});
    };
    if (sync) {
      write();
    } else {
      writer_->Submit(std::move(write));
    }
  }
}

void Daemon::FinishSnapshotWrites() {
  std::vector<Written> written;
  {
    std::lock_guard<std::mutex> lock(written_mu_);
    written.swap(written_);
  }
  std::vector<RdKafka::TopicPartition*> offsets;
  for (const Written& w : written) {
    if (!w.bytes.ok()) {
      metrics_->snapshot_failures().Increment();
      Log(std::string(w.bytes.status().message()));
      continue;
    }
    metrics_->snapshot_duration().Observe(absl::ToDoubleSeconds(w.took));
    metrics_->SnapshotSize(w.partition).Set(static_cast<double>(*w.bytes));
    metrics_->last_snapshot().Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
    // Informational (lag tools): restarts resume from the snapshot, not from this commit.
    if (partitions_.count(w.partition) && w.next_offset > 0) {
      offsets.push_back(
          RdKafka::TopicPartition::create(config_.results_topic, w.partition, w.next_offset));
    }
  }
  if (!offsets.empty()) {
    consumer_->commitAsync(offsets);
    RdKafka::TopicPartition::destroy(offsets);
  }
}

absl::Status Daemon::RestorePartition(int32_t partition, PartitionState* out) {
  const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, partition);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::optional<v1::Snapshot>> snapshot = ReadSnapshotFile(path);
  if (!snapshot.ok()) return snapshot.status();
  if (!snapshot->has_value()) {
    out->topic = config_.results_topic;
    out->partition = partition;
    out->next_offset = 0;
    Log(absl::StrCat("partition ", partition, ": no snapshot, reading from the beginning"));
    return absl::OkStatus();
  }
  absl::StatusOr<PartitionState> state =
      PartitionState::FromSnapshot(*std::move(*snapshot), config_.pool, fingerprint_);
  if (!state.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", state.status().message()));
  }
  if (state->topic != config_.results_topic || state->partition != partition) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": holds ", state->topic, "/",
                                                   state->partition, ", not ",
                                                   config_.results_topic, "/", partition));
  }
  *out = *std::move(state);
  metrics_->restore_duration().Observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  Log(absl::StrCat("partition ", partition, ": restored ", out->pools.size(),
                   " pools from the snapshot at offset ", out->next_offset));
  return absl::OkStatus();
}

void Daemon::OnAssign(std::vector<RdKafka::TopicPartition*>& partitions) {
  for (RdKafka::TopicPartition* tp : partitions) {
    const int32_t p = tp->partition();
    if (!partitions_.count(p)) {
      PartitionState state;
      absl::Status restored = RestorePartition(p, &state);
      if (!restored.ok()) {
        fatal_ = restored;
        Log(std::string(restored.message()));
        continue;
      }
      for (const auto& [name, pool] : state.pools) pool_partition_[name] = p;
      partitions_.emplace(p, std::move(state));
      incarnation_[p] = next_incarnation_++;
      pending_ml_[p] = 0;
    }
    // Resume exactly after the snapshot: the state reflects every record before it.
    const int64_t next = partitions_.count(p) ? partitions_.at(p).next_offset : 0;
    tp->set_offset(next > 0 ? next : RdKafka::Topic::OFFSET_BEGINNING);
  }
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

void Daemon::OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions) {
  // Snapshot what we hand over, then forget it.
  Snapshot(true, true);
  FinishSnapshotWrites();
  for (RdKafka::TopicPartition* tp : partitions) {
    auto it = partitions_.find(tp->partition());
    if (it == partitions_.end()) continue;
    for (const auto& [name, pool] : it->second.pools) pool_partition_.erase(name);
    partitions_.erase(it);
    pending_ml_.erase(tp->partition());
    incarnation_.erase(tp->partition());
  }
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

}  // namespace ratingd
