#include "daemon/ratingd/snapshot_chunks.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

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

absl::Status SnapshotAssembler::Add(absl::string_view value, const std::string& where) {
  v1::SnapshotChunk chunk;
  if (!chunk.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    return absl::DataLossError(absl::StrCat(where, ": not a ratingd snapshot chunk"));
  }
  if (chunk.group() != group_ || chunk.topic() != topic_ || chunk.partition() != partition_) {
    return absl::FailedPreconditionError(
        absl::StrCat(where, ": a snapshot of group '", chunk.group(), "', ", chunk.topic(), "/",
                     chunk.partition(), " where group '", group_, "', ", topic_, "/", partition_,
                     " was expected; give every consumer group its own --snapshots-topic"));
  }
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

absl::StatusOr<std::optional<v1::Snapshot>> SnapshotAssembler::Latest() const {
  if (latest_next_offset_ < 0) return std::nullopt;
  v1::Snapshot snapshot;
  if (!snapshot.ParseFromString(latest_bytes_)) {
    return absl::DataLossError(absl::StrCat("the snapshot of ", topic_, "/", partition_,
                                            " at offset ", latest_next_offset_,
                                            " does not parse once reassembled"));
  }
  return snapshot;
}

}  // namespace ratingd
