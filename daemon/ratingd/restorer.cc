#include "daemon/ratingd/restorer.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/log.h"

namespace ratingd {

absl::StatusOr<std::optional<v1::Snapshot>> Restorer::Snapshot(int32_t partition, int64_t committed,
                                                               std::string* source) {
  // The local file is trusted only at the committed offset itself (Kafka Streams' rule:
  // a local copy is valid only at a committed boundary); otherwise the snapshots topic.
  const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, partition);
  absl::StatusOr<std::optional<v1::Snapshot>> local = ReadSnapshotFile(path);
  if (!local.ok()) Log(absl::StrCat("ignoring the local snapshot: ", local.status().message()));
  if (local.ok() && local->has_value() && (*local)->group() == config_.group &&
      (*local)->offsets_size() == 1 && committed >= 0 &&
      (*local)->offsets(0).next_offset() == committed) {
    *source = path;
    return local;
  }
  *source = "the snapshots topic";
  return snapshots_->Latest(partition);
}

absl::StatusOr<PartitionState> Restorer::Restore(int32_t partition) {
  const absl::Time start = clock_->Now();
  // The group's committed offset: everything before it was emitted already.
  absl::StatusOr<int64_t> committed = input_->Committed(partition);
  if (!committed.ok()) return committed.status();
  std::string source;
  absl::StatusOr<std::optional<v1::Snapshot>> snapshot = Snapshot(partition, *committed, &source);
  if (!snapshot.ok()) return snapshot.status();
  PartitionState state;
  state.topic = config_.results_topic;
  state.partition = partition;
  const bool had_snapshot = snapshot->has_value();
  if (had_snapshot) {
    absl::StatusOr<PartitionState> loaded =
        PartitionState::FromSnapshot(**std::move(snapshot), config_.pool, fingerprint_);
    if (!loaded.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ", partition ", partition, ": ", loaded.status().message()));
    }
    if (loaded->topic != config_.results_topic || loaded->partition != partition) {
      return absl::FailedPreconditionError(absl::StrCat(source, ": holds ", loaded->topic, "/",
                                                        loaded->partition, ", not ",
                                                        config_.results_topic, "/", partition));
    }
    if (*committed >= 0 && loaded->next_offset > *committed) {
      // The group's offsets were moved back by an operator: rebuild up to them.
      Log(absl::StrCat("partition ", partition, ": snapshot at ", loaded->next_offset,
                       " is past the committed offset ", *committed, "; rebuilding from 0"));
      source = "nothing (rebuild)";
    } else {
      state = *std::move(loaded);
    }
  }
  state.replay_until = std::max<int64_t>(*committed, state.next_offset);
  state.Restored(*committed, had_snapshot || state.next_offset > 0 ? state.next_offset : -1);
  Log(absl::StrCat("partition ", partition, ": restored ", state.pools.size(), " pools at offset ",
                   state.next_offset, " from ", source,
                   "; replaying without emitting up to the committed offset ", state.replay_until));
  metrics_->restore_duration().Observe(absl::ToDoubleSeconds(clock_->Now() - start));
  return state;
}

}  // namespace ratingd
