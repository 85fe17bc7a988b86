#include "daemon/ratingd/dedup_segments.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "daemon/ratingd/wire_format.h"

namespace ratingd {

std::string DedupSegmentKey(int32_t partition, absl::string_view pool, uint64_t seq) {
  return absl::StrCat(partition, "/dedup/", seq, "/", pool);
}

bool IsDedupSegmentKey(absl::string_view key) { return absl::StrContains(key, "/dedup/"); }

std::string SerializeDedupSegment(absl::string_view group, absl::string_view topic,
                                  int32_t partition, absl::string_view pool,
                                  const DedupWindow::Segment& segment) {
  v1::DedupSegment head;
  head.set_group(std::string(group));
  head.set_topic(std::string(topic));
  head.set_partition(partition);
  head.set_pool(std::string(pool));
  head.set_seq(segment.seq);
  std::string out = head.SerializeAsString();
  size_t ids = 0;
  for (absl::string_view id : segment.ids()) ids += wire::LengthDelimitedSize(id.size());
  out.reserve(out.size() + ids);
  constexpr uint32_t kGameIds = v1::DedupSegment::kGameIdsFieldNumber;
  for (absl::string_view id : segment.ids()) wire::AppendLengthDelimited(kGameIds, id, out);
  return out;
}

namespace {

void AddSegments(const std::string& group, const PartitionState& state, const std::string& pool,
                 const std::vector<DedupWindow::SegmentPtr>& segments,
                 std::vector<SnapshotRecord>& records) {
  for (const DedupWindow::SegmentPtr& segment : segments) {
    records.push_back({DedupSegmentKey(state.partition, pool, segment->seq),
                       SerializeDedupSegment(group, state.topic, state.partition, pool, *segment)});
  }
}

}  // namespace

std::vector<SnapshotRecord> TakeDedupRecords(const std::string& group, PartitionState& state) {
  std::vector<SnapshotRecord> records;
  for (auto& [name, pool] : state.pools) {
    DedupWindow& window = pool->dedup_window();
    for (uint64_t seq : window.TakeForgotten()) {
      records.push_back({DedupSegmentKey(state.partition, name, seq), std::nullopt});
    }
    AddSegments(group, state, name, window.TakeUnwritten(), records);
  }
  return records;
}

std::vector<SnapshotRecord> TakeSegmentsAhead(const std::string& group, PartitionState& state,
                                              size_t* budget) {
  std::vector<SnapshotRecord> records;
  for (auto& [name, pool] : state.pools) {
    if (*budget == 0) break;
    DedupWindow& window = pool->dedup_window();
    if (!window.HasUnwritten()) continue;
    const std::vector<DedupWindow::SegmentPtr> segments = window.TakeUnwritten(*budget);
    for (const DedupWindow::SegmentPtr& segment : segments) {
      *budget -= std::min(*budget, segment->IdBytes());
    }
    AddSegments(group, state, name, segments, records);
  }
  return records;
}

bool HasSegmentsAhead(const PartitionState& state) {
  for (const auto& [name, pool] : state.pools) {
    if (pool->dedup_window().HasUnwritten()) return true;
  }
  return false;
}

std::vector<PoolSegment> SealedSegments(const PartitionState& state) {
  std::vector<PoolSegment> segments;
  for (const auto& [name, pool] : state.pools) {
    for (const DedupWindow::SegmentPtr& s : pool->dedup_window().sealed()) {
      segments.push_back({name, s});
    }
  }
  return segments;
}

void AppendDedupSegments(const std::vector<PoolSegment>& segments, std::string& snapshot_bytes) {
  constexpr uint32_t kDedupSegments = v1::Snapshot::kDedupSegmentsFieldNumber;
  for (const PoolSegment& s : segments) {
    wire::AppendLengthDelimited(
        kDedupSegments, SerializeDedupSegment("", "", 0, s.pool, *s.segment), snapshot_bytes);
  }
}

absl::StatusOr<absl::flat_hash_map<std::string, std::vector<DedupWindow::Segment>>>
TakeSegmentsByPool(v1::Snapshot& snapshot) {
  absl::flat_hash_map<std::string, std::vector<DedupWindow::Segment>> by_pool;
  for (v1::DedupSegment& s : *snapshot.mutable_dedup_segments()) {
    DedupWindow::Segment& segment = by_pool[s.pool()].emplace_back();
    segment.seq = s.seq();
    for (const std::string& id : s.game_ids()) segment.Add(id);
  }
  snapshot.clear_dedup_segments();
  for (auto& [pool, segments] : by_pool) {
    std::sort(segments.begin(), segments.end(),
              [](const auto& a, const auto& b) { return a.seq < b.seq; });
    for (size_t i = 1; i < segments.size(); ++i) {
      if (segments[i].seq == segments[i - 1].seq) {
        return absl::InvalidArgumentError(absl::StrCat("pool '", pool, "': de-duplication segment ",
                                                       segments[i].seq, " appears twice"));
      }
    }
  }
  return by_pool;
}

}  // namespace ratingd
