#include "daemon/ratingd/snapshot_chunks.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/dedup_segments.h"
#include "ratings/status_macros.h"

namespace ratingd {

std::vector<ChunkRecord> SplitSnapshot(const std::string& group, const std::string& topic,
                                       int32_t partition, int64_t next_offset, uint64_t snapshot_id,
                                       const std::string& snapshot_bytes, size_t chunk_bytes) {
  chunk_bytes = std::max<size_t>(chunk_bytes, 1);
  const size_t count = std::max<size_t>(1, (snapshot_bytes.size() + chunk_bytes - 1) / chunk_bytes);
  std::vector<ChunkRecord> records;
  records.reserve(count);
  v1::SnapshotChunk chunk;
  chunk.set_group(group);
  chunk.set_topic(topic);
  chunk.set_partition(partition);
  chunk.set_next_offset(next_offset);
  chunk.set_snapshot_id(snapshot_id);
  chunk.set_count(static_cast<uint32_t>(count));
  for (size_t i = 0; i < count; ++i) {
    chunk.set_index(static_cast<uint32_t>(i));
    const size_t begin = std::min(snapshot_bytes.size(), i * chunk_bytes);
    chunk.set_data(snapshot_bytes.substr(begin, chunk_bytes));
    ChunkRecord& r = records.emplace_back();
    r.key = absl::StrCat(partition, "/", i);
    chunk.SerializeToString(&r.value);
  }
  return records;
}

absl::Status SnapshotAssembler::Add(absl::string_view key,
                                    const std::optional<absl::string_view>& value,
                                    const std::string& where) {
  if (IsDedupSegmentKey(key)) return AddSegment(key, value, where);
  if (!value.has_value()) return absl::OkStatus();  // a chunk's tombstone: nothing to keep
  return AddChunk(*value, where);
}

absl::Status SnapshotAssembler::CheckSource(const std::string& group, const std::string& topic,
                                            int32_t partition, const std::string& where) const {
  if (group == group_ && topic == topic_ && partition == partition_) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(where, ": a snapshot of group '", group, "', ", topic, "/", partition,
                   " where group '", group_, "', ", topic_, "/", partition_,
                   " was expected; give every consumer group its own --snapshots-topic"));
}

absl::Status SnapshotAssembler::AddSegment(absl::string_view key,
                                           const std::optional<absl::string_view>& value,
                                           const std::string& where) {
  if (!value.has_value()) {
    segments_.erase(key);
    return absl::OkStatus();
  }
  v1::DedupSegment segment;
  if (!segment.ParseFromArray(value->data(), static_cast<int>(value->size()))) {
    return absl::DataLossError(absl::StrCat(where, ": not a ratingd de-duplication segment"));
  }
  RETURN_IF_ERROR(CheckSource(segment.group(), segment.topic(), segment.partition(), where));
  if (DedupSegmentKey(partition_, segment.pool(), segment.seq()) != key) {
    return absl::DataLossError(absl::StrCat(where, ": the segment does not match its key"));
  }
  segments_[key] = std::move(segment);
  return absl::OkStatus();
}

absl::Status SnapshotAssembler::AddChunk(absl::string_view value, const std::string& where) {
  v1::SnapshotChunk chunk;
  if (!chunk.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    return absl::DataLossError(absl::StrCat(where, ": not a ratingd snapshot chunk"));
  }
  RETURN_IF_ERROR(CheckSource(chunk.group(), chunk.topic(), chunk.partition(), where));
  if (chunk.count() == 0 || chunk.index() >= chunk.count()) {
    return absl::DataLossError(
        absl::StrCat(where, ": chunk ", chunk.index(), " of ", chunk.count(), " is out of range"));
  }
  Pending& p = pending_[chunk.snapshot_id()];
  if (p.chunks.empty()) {
    p.chunks.resize(chunk.count());
    p.next_offset = chunk.next_offset();
  }
  if (p.chunks.size() != chunk.count() || p.next_offset != chunk.next_offset()) {
    return absl::DataLossError(absl::StrCat(where,
                                            ": chunk disagrees with the other chunks of snapshot ",
                                            chunk.snapshot_id(), " (count or offset)"));
  }
  std::optional<std::string>& slot = p.chunks[chunk.index()];
  if (!slot.has_value()) ++p.seen;
  slot = std::move(*chunk.mutable_data());
  if (p.seen == p.chunks.size()) {
    latest_bytes_.clear();
    for (const std::optional<std::string>& c : p.chunks) latest_bytes_ += *c;
    latest_next_offset_ = p.next_offset;
    pending_.erase(chunk.snapshot_id());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<v1::Snapshot>> SnapshotAssembler::Latest() {
  if (latest_next_offset_ < 0) return std::nullopt;
  v1::Snapshot snapshot;
  if (!snapshot.ParseFromString(latest_bytes_)) {
    return absl::DataLossError(absl::StrCat("the snapshot of ", topic_, "/", partition_,
                                            " at offset ", latest_next_offset_,
                                            " does not parse once reassembled"));
  }
  RETURN_IF_ERROR(AttachSegments(snapshot));
  return snapshot;
}

absl::Status SnapshotAssembler::AttachSegments(v1::Snapshot& snapshot) {
  for (const v1::PoolSnapshot& pool : snapshot.pools()) {
    for (uint32_t i = 0; i < pool.dedup_segments(); ++i) {
      const uint64_t seq = pool.dedup_first_segment() + i;
      auto it = segments_.find(DedupSegmentKey(partition_, pool.pool(), seq));
      if (it == segments_.end()) {
        return absl::DataLossError(
            absl::StrCat("the snapshot of ", topic_, "/", partition_, " at offset ",
                         latest_next_offset_, " refers to de-duplication segment ", seq,
                         " of pool '", pool.pool(), "', which the snapshots topic does not hold"));
      }
      v1::DedupSegment& segment = *snapshot.add_dedup_segments();
      segment = std::move(it->second);
      segment.clear_group();
      segment.clear_topic();
      segment.clear_partition();
      segments_.erase(it);
    }
  }
  return absl::OkStatus();
}

}  // namespace ratingd
