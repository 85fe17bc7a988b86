// The sealed de-duplication segments of snapshot format 2 (docs/ARCHITECTURE.md §5): the
// records they make in the snapshots topic (written once each, deleted by a tombstone once
// forgotten), and the stand-alone form inside a Snapshot (local files, snapshots
// reassembled from the topic). No Kafka here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "daemon/ratingd/dedup_window.h"
#include "daemon/ratingd/partition_state.h"
#include "ratingd/v1/snapshot.pb.h"

namespace ratingd {

// A record of the snapshots topic beside the chunks; no value: a tombstone.
struct SnapshotRecord {
  std::string key;
  std::optional<std::string> value;
};

// "<partition>/dedup/<seq>/<pool>". Chunk keys ("<partition>/<index>") never hold "/dedup/".
std::string DedupSegmentKey(int32_t partition, absl::string_view pool, uint64_t seq);
bool IsDedupSegmentKey(absl::string_view key);

// A serialised v1::DedupSegment, its ids appended without building the message first.
// Empty `group` and `topic` with partition 0 give the form inside a Snapshot.
std::string SerializeDedupSegment(absl::string_view group, absl::string_view topic,
                                  int32_t partition, absl::string_view pool,
                                  const DedupWindow::Segment& segment);

// The records the snapshots topic needs beside a snapshot of `state` taken now: every
// sealed segment not yet written, and a tombstone for every written one forgotten since.
// From now on they count as written and deleted (an abort rebuilds the state from the last
// commit, and with it this bookkeeping).
std::vector<SnapshotRecord> TakeDedupRecords(const std::string& group, PartitionState& state);

// Ahead of the next snapshot, when the input is idle: the oldest sealed segments not yet
// written, pool after pool, while their ids' bytes stay within `*budget` (which they are
// taken from; at least one segment while it is positive). No tombstones: the last
// committed snapshot may still refer to a forgotten segment. From now on they count as
// written, and the next snapshot refers to them without writing them again.
std::vector<SnapshotRecord> TakeSegmentsAhead(const std::string& group, PartitionState& state,
                                              size_t* budget);
bool HasSegmentsAhead(const PartitionState& state);

// Every pool's sealed segments, shared (immutable): what a local file needs besides the
// snapshot's bytes. AppendDedupSegments adds them to those bytes as Snapshot.dedup_segments.
struct PoolSegment {
  std::string pool;
  DedupWindow::SegmentPtr segment;
};
std::vector<PoolSegment> SealedSegments(const PartitionState& state);
void AppendDedupSegments(const std::vector<PoolSegment>& segments, std::string& snapshot_bytes);

// A stand-alone snapshot's dedup_segments, moved out, by pool and in order of number.
// InvalidArgument if a segment appears twice.
absl::StatusOr<absl::flat_hash_map<std::string, std::vector<DedupWindow::Segment>>>
TakeSegmentsByPool(v1::Snapshot& snapshot);

}  // namespace ratingd
