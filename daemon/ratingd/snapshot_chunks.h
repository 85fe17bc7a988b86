// Snapshots in the compacted snapshots topic (docs/ARCHITECTURE.md §4, §5):
// a serialised v1::Snapshot cut into SnapshotChunk records small enough for a Kafka
// message, and the reader side that finds a partition's last complete snapshot in the
// records of its snapshots-topic partition. No Kafka here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratingd/v1/snapshot.pb.h"

namespace ratingd {

inline constexpr size_t kSnapshotChunkBytes = 512 * 1024;

struct ChunkRecord {
  std::string key;    // "<partition>/<index>": compaction keeps the newest of each index
  std::string value;  // a serialised SnapshotChunk
};

// Cuts `snapshot_bytes` (a serialised Snapshot of `partition` at `next_offset`) into
// records of at most `chunk_bytes` of data each; an empty snapshot still gives one record.
std::vector<ChunkRecord> SplitSnapshot(const std::string& group, const std::string& topic,
                                       int32_t partition, int64_t next_offset, uint64_t snapshot_id,
                                       const std::string& snapshot_bytes,
                                       size_t chunk_bytes = kSnapshotChunkBytes);

// Fed the records of one snapshots-topic partition in log order (committed ones only),
// keeps the last snapshot all of whose chunks were seen, and the de-duplication segments
// not deleted by a later tombstone (docs/ARCHITECTURE.md §5.2). Records of another group,
// topic or partition are refused (an error naming what does not match): one snapshots topic
// serves one consumer group.
class SnapshotAssembler {
 public:
  SnapshotAssembler(std::string group, std::string topic, int32_t partition)
      : group_(std::move(group)), topic_(std::move(topic)), partition_(partition) {}

  // `value` is null for a tombstone. `where` names the record in errors (e.g.
  // "ratingd.snapshots/3@17").
  absl::Status Add(absl::string_view key, const std::optional<absl::string_view>& value,
                   const std::string& where);

  // The last complete snapshot, parsed and standing alone (the segments it refers to moved
  // into its dedup_segments); nullopt if none. DataLoss if it does not parse or refers to a
  // segment the topic does not hold. Call once.
  absl::StatusOr<std::optional<v1::Snapshot>> Latest();
  // The offset the last complete snapshot matches (-1 if none).
  int64_t latest_next_offset() const { return latest_next_offset_; }
  size_t incomplete() const { return pending_.size(); }

 private:
  absl::Status AddChunk(absl::string_view value, const std::string& where);
  absl::Status AddSegment(absl::string_view key, const std::optional<absl::string_view>& value,
                          const std::string& where);
  absl::Status CheckSource(const std::string& group, const std::string& topic, int32_t partition,
                           const std::string& where) const;
  // Moves the segments `snapshot`'s pools refer to into its dedup_segments.
  absl::Status AttachSegments(v1::Snapshot& snapshot);

  struct Pending {
    int64_t next_offset = 0;
    std::vector<std::optional<std::string>> chunks;
    size_t seen = 0;
  };
  std::string group_, topic_;
  int32_t partition_;
  absl::flat_hash_map<uint64_t, Pending> pending_;
  absl::flat_hash_map<std::string, v1::DedupSegment> segments_;  // by record key
  std::string latest_bytes_;
  int64_t latest_next_offset_ = -1;
};

}  // namespace ratingd
