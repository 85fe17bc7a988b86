// Daemon: partitions coming and going (docs/ARCHITECTURE.md §4, §7). On assignment
// a partition is not fetched until its state is restored: from the local snapshot file if
// that file matches the group's committed offset exactly, else from the last complete
// snapshot in the snapshots topic (read_committed). It is then assigned at the snapshot's
// offset; the records up to the committed offset are replayed without emitting (OnRecord). On
// revocation the open transaction commits, with snapshots, and the state is dropped.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/daemon.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/snapshot_chunks.h"

namespace ratingd {

void Daemon::OnAssign(const std::vector<RdKafka::TopicPartition*>& partitions) {
  // Nothing of a partition is fetched before its state is restored: each is assigned
  // only once restored, starting at its snapshot's offset.
  ready_ = false;
  metrics_->ready().Set(0);
  metrics_->partitions_restoring().Set(static_cast<double>(partitions.size()));
  for (RdKafka::TopicPartition* tp : partitions) {
    const int32_t p = tp->partition();
    if (!fatal_.ok() || !RestoreWithRetry(p)) break;
    const int64_t next = partitions_.at(p).next_offset;
    tp->set_offset(next > 0 ? next : RdKafka::Topic::OFFSET_BEGINNING);
  }
  consumer_->assign(const_cast<std::vector<RdKafka::TopicPartition*>&>(partitions));
  UpdateReadiness();
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

void Daemon::OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions) {
  // Eager protocol: the group generation is still ours, so what was read commits now,
  // with a snapshot of every partition handed over (the next owner replays nothing).
  revoking_ = true;
  if (!stopping_) CommitTransaction(true);
  revoking_ = false;
  for (const RdKafka::TopicPartition* tp : partitions) {
    const int32_t p = tp->partition();
    if (auto it = partitions_.find(p); it != partitions_.end()) {
      for (const auto& [name, pool] : it->second.pools) metrics_->ForgetPool(name);
    }
    DropPartition(p);
    committed_.erase(p);
    snapshot_offset_.erase(p);
    partition_counters_.erase(p);  // holds a pointer to a gauge removed here
    metrics_->ForgetPartition(config_.results_topic, p);
  }
  consumer_->unassign();
  ready_ = false;
  metrics_->ready().Set(0);
  metrics_->assigned_partitions().Set(static_cast<double>(partitions_.size()));
}

void Daemon::DropPartition(int32_t partition) {
  auto it = partitions_.find(partition);
  if (it != partitions_.end()) {
    for (const auto& [name, pool] : it->second.pools) pool_partition_.erase(name);
    partitions_.erase(it);
  }
  pending_ml_.erase(partition);
  incarnation_.erase(partition);
}

bool Daemon::RestoreWithRetry(int32_t partition) {
  const absl::Time deadline = absl::Now() + absl::Seconds(120);
  while (true) {
    absl::Status restored = RestorePartition(partition);
    if (restored.ok()) return true;
    if (absl::IsInvalidArgument(restored) || absl::IsFailedPrecondition(restored) ||
        absl::Now() > deadline) {
      // Parameters or topics that do not fit (the operator must act), or a broker away
      // for too long: exit non-zero, the supervisor restarts.
      fatal_ = restored;
      Log(absl::StrCat("partition ", partition, ": ", restored.message()));
      return false;
    }
    Log(absl::StrCat("partition ", partition, ": restore failed, retrying: ", restored.message()));
    producer_->poll(500);
  }
}

absl::Status Daemon::RestorePartition(int32_t partition) {
  const auto start = std::chrono::steady_clock::now();
  // The group's committed offset: everything before it was emitted already.
  std::vector<RdKafka::TopicPartition*> tps = {
      RdKafka::TopicPartition::create(config_.results_topic, partition)};
  const RdKafka::ErrorCode err = consumer_->committed(tps, 10000);
  const int64_t committed = tps[0]->offset() >= 0 ? tps[0]->offset() : -1;
  RdKafka::TopicPartition::destroy(tps);
  if (err != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(absl::StrCat("committed offset: ", RdKafka::err2str(err)));
  }
  // The local file is trusted only at the committed offset itself (Kafka Streams' rule:
  // a local copy is valid only at a committed boundary); otherwise the snapshots topic.
  const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, partition);
  std::optional<v1::Snapshot> snapshot;
  std::string source = "the snapshots topic";
  absl::StatusOr<std::optional<v1::Snapshot>> local = ReadSnapshotFile(path);
  if (!local.ok()) Log(absl::StrCat("ignoring the local snapshot: ", local.status().message()));
  if (local.ok() && local->has_value() && (*local)->group() == config_.group &&
      (*local)->offsets_size() == 1 && committed >= 0 &&
      (*local)->offsets(0).next_offset() == committed) {
    snapshot = std::move(**local);
    source = path;
  } else {
    absl::StatusOr<std::optional<v1::Snapshot>> remote = ReadSnapshotTopic(partition);
    if (!remote.ok()) return remote.status();
    snapshot = *std::move(remote);
  }
  PartitionState state;
  state.topic = config_.results_topic;
  state.partition = partition;
  if (snapshot.has_value()) {
    absl::StatusOr<PartitionState> loaded =
        PartitionState::FromSnapshot(*std::move(snapshot), config_.pool, fingerprint_);
    if (!loaded.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ", partition ", partition, ": ", loaded.status().message()));
    }
    if (loaded->topic != config_.results_topic || loaded->partition != partition) {
      return absl::FailedPreconditionError(absl::StrCat(source, ": holds ", loaded->topic, "/",
                                                        loaded->partition, ", not ",
                                                        config_.results_topic, "/", partition));
    }
    if (committed >= 0 && loaded->next_offset > committed) {
      // The group's offsets were moved back by an operator: rebuild up to them.
      Log(absl::StrCat("partition ", partition, ": snapshot at ", loaded->next_offset,
                       " is past the committed offset ", committed, "; rebuilding from 0"));
      source = "nothing (rebuild)";
    } else {
      state = *std::move(loaded);
    }
  }
  state.replay_until = std::max<int64_t>(committed, state.next_offset);
  Log(absl::StrCat("partition ", partition, ": restored ", state.pools.size(), " pools at offset ",
                   state.next_offset, " from ", source,
                   "; replaying without emitting up to the committed offset ", state.replay_until));
  for (const auto& [name, pool] : state.pools) pool_partition_[name] = partition;
  if (committed >= 0) committed_[partition] = committed;
  if (snapshot.has_value() || state.next_offset > 0) {
    snapshot_offset_[partition] = state.next_offset;
  }
  partitions_.insert_or_assign(partition, std::move(state));
  incarnation_[partition] = next_incarnation_++;
  pending_ml_[partition] = 0;
  metrics_->restore_duration().Observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return absl::OkStatus();
}

absl::StatusOr<std::optional<v1::Snapshot>> Daemon::ReadSnapshotTopic(int32_t partition) {
  int64_t low = 0, high = 0;
  if (RdKafka::ErrorCode e = snapshot_reader_->query_watermark_offsets(
          config_.snapshots_topic, partition, &low, &high, 10000);
      e != RdKafka::ERR_NO_ERROR) {
    return absl::UnavailableError(
        absl::StrCat(config_.snapshots_topic, "/", partition, ": ", RdKafka::err2str(e)));
  }
  if (high <= low) return std::nullopt;
  std::vector<RdKafka::TopicPartition*> tps = {RdKafka::TopicPartition::create(
      config_.snapshots_topic, partition, RdKafka::Topic::OFFSET_BEGINNING)};
  snapshot_reader_->assign(tps);
  RdKafka::TopicPartition::destroy(tps);
  SnapshotAssembler assembler(config_.group, config_.results_topic, partition);
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  absl::Status status = absl::OkStatus();
  bool done = false;
  while (!done && status.ok()) {
    if (absl::Now() > deadline) {
      status = absl::UnavailableError(absl::StrCat("reading ", config_.snapshots_topic, "/",
                                                   partition, " took more than 60 s"));
      break;
    }
    std::unique_ptr<RdKafka::Message> m(snapshot_reader_->consume(500));
    switch (m->err()) {
      case RdKafka::ERR_NO_ERROR: {
        const std::string where =
            absl::StrCat(config_.snapshots_topic, "/", partition, "@", m->offset());
        absl::Status added = assembler.Add(
            absl::string_view(static_cast<const char*>(m->payload()), m->len()), where);
        if (absl::IsFailedPrecondition(added))
          status = added;
        else if (!added.ok())
          Log(absl::StrCat("skipping: ", added.message()));
        break;
      }
      case RdKafka::ERR__PARTITION_EOF:
        done = true;
        break;
      case RdKafka::ERR__TIMED_OUT:
        break;
      default:
        Log(absl::StrCat("reading ", config_.snapshots_topic, ": ", m->errstr()));
    }
  }
  snapshot_reader_->unassign();
  if (!status.ok()) return status;
  return assembler.Latest();
}

}  // namespace ratingd
