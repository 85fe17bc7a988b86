// Snapshots in the compacted snapshots topic: cutting a serialised snapshot into
// chunks and finding the last complete one among a partition's records. Expected values
// come from the construction of the inputs (which snapshot was written last and whole).
#include "daemon/ratingd/snapshot_chunks.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/dedup_segments.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;

// A serialised Snapshot of `pools` pools with long names, so it spans several chunks.
std::string SnapshotBytes(int64_t next_offset, int pools) {
  v1::Snapshot s;
  s.set_format(1);
  s.set_group("g");
  v1::PartitionOffset* o = s.add_offsets();
  o->set_topic("results");
  o->set_partition(3);
  o->set_next_offset(next_offset);
  for (int i = 0; i < pools; ++i) {
    s.add_pools()->set_pool(absl::StrCat("pool-", i, "-", std::string(100, 'x')));
  }
  return s.SerializeAsString();
}

std::vector<ChunkRecord> Split(int64_t next_offset, uint64_t id, const std::string& bytes,
                               size_t chunk = 256) {
  return SplitSnapshot("g", "results", 3, next_offset, id, bytes, chunk);
}

TEST(SnapshotChunksTest, SplitsIntoKeyedChunksThatReassembleExactly) {
  const std::string bytes = SnapshotBytes(40, 20);  // about 2.2 kB: 9 chunks of 256 B
  const std::vector<ChunkRecord> records = Split(40, 7, bytes);
  ASSERT_EQ(records.size(), (bytes.size() + 255) / 256);
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].key, absl::StrCat("3/", i));  // one compaction key per index
  }
  SnapshotAssembler assembler("g", "results", 3);
  for (const ChunkRecord& r : records) ASSERT_THAT(assembler.Add(r.key, r.value, "test"), IsOk());
  EXPECT_EQ(assembler.latest_next_offset(), 40);
  auto latest = assembler.Latest();
  ASSERT_THAT(latest, IsOk());
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->SerializeAsString(), bytes);
}

TEST(SnapshotChunksTest, EmptySnapshotIsOneChunk) {
  const std::vector<ChunkRecord> records = Split(0, 1, "");
  ASSERT_EQ(records.size(), 1u);
  SnapshotAssembler assembler("g", "results", 3);
  ASSERT_THAT(assembler.Add(records[0].key, records[0].value, "test"), IsOk());
  EXPECT_EQ(assembler.latest_next_offset(), 0);
}

TEST(SnapshotChunksTest, LatestCompleteWinsOverIncompleteAndOlder) {
  const std::string old_bytes = SnapshotBytes(10, 20);
  const std::string new_bytes = SnapshotBytes(90, 5);  // fewer chunks than the old one
  const std::vector<ChunkRecord> old_records = Split(10, 1, old_bytes);
  const std::vector<ChunkRecord> new_records = Split(90, 2, new_bytes);
  ASSERT_GT(old_records.size(), new_records.size());
  SnapshotAssembler assembler("g", "results", 3);
  for (const ChunkRecord& r : old_records) ASSERT_THAT(assembler.Add(r.key, r.value, "t"), IsOk());
  // The newer snapshot's chunks, all but the last: the old one is still the latest.
  for (size_t i = 0; i + 1 < new_records.size(); ++i) {
    ASSERT_THAT(assembler.Add(new_records[i].key, new_records[i].value, "t"), IsOk());
  }
  EXPECT_EQ(assembler.latest_next_offset(), 10);
  ASSERT_THAT(assembler.Add(new_records.back().key, new_records.back().value, "t"), IsOk());
  EXPECT_EQ(assembler.latest_next_offset(), 90);
  EXPECT_EQ((*assembler.Latest())->SerializeAsString(), new_bytes);
}

TEST(SnapshotChunksTest, AfterCompactionTheNewestChunkPerKeyStillGivesTheLatest) {
  // Compaction keeps the newest record of each key: the new snapshot's chunks 0..k-1 and
  // the old snapshot's chunks k.. (an incomplete leftover, ignored).
  const std::vector<ChunkRecord> old_records = Split(10, 1, SnapshotBytes(10, 20));
  const std::string new_bytes = SnapshotBytes(90, 5);
  const std::vector<ChunkRecord> new_records = Split(90, 2, new_bytes);
  SnapshotAssembler assembler("g", "results", 3);
  for (size_t i = new_records.size(); i < old_records.size(); ++i) {
    ASSERT_THAT(assembler.Add(old_records[i].key, old_records[i].value, "t"), IsOk());
  }
  for (const ChunkRecord& r : new_records) ASSERT_THAT(assembler.Add(r.key, r.value, "t"), IsOk());
  EXPECT_EQ(assembler.latest_next_offset(), 90);
  EXPECT_EQ((*assembler.Latest())->SerializeAsString(), new_bytes);
  EXPECT_EQ(assembler.incomplete(), 1u);
}

TEST(SnapshotChunksTest, RefusesAnotherGroupsOrPartitionsChunks) {
  const std::vector<ChunkRecord> other_group =
      SplitSnapshot("other", "results", 3, 5, 1, SnapshotBytes(5, 1));
  SnapshotAssembler assembler("g", "results", 3);
  EXPECT_THAT(
      assembler.Add(other_group[0].key, other_group[0].value, "snapshots/3@0"),
      StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::HasSubstr("--snapshots-topic")));
  const std::vector<ChunkRecord> other_partition =
      SplitSnapshot("g", "results", 4, 5, 1, SnapshotBytes(5, 1));
  EXPECT_THAT(
      assembler.Add(other_partition[0].key, other_partition[0].value, "snapshots/3@1"),
      StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::HasSubstr("--snapshots-topic")));
  EXPECT_EQ(assembler.latest_next_offset(), -1);
}

TEST(SnapshotChunksTest, GarbageAndInconsistentChunksAreDataLoss) {
  SnapshotAssembler assembler("g", "results", 3);
  EXPECT_THAT(assembler.Add("3/0", "\xff\xff\xff", "snapshots/3@0"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@")));
  v1::SnapshotChunk bad;
  bad.set_group("g");
  bad.set_topic("results");
  bad.set_partition(3);
  bad.set_count(2);
  bad.set_index(2);  // out of range
  EXPECT_THAT(assembler.Add("3/0", bad.SerializeAsString(), "snapshots/3@1"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@")));
  // Two chunks of one snapshot id that disagree on the chunk count.
  bad.set_index(0);
  ASSERT_THAT(assembler.Add("3/0", bad.SerializeAsString(), "snapshots/3@2"), IsOk());
  bad.set_count(3);
  bad.set_index(1);
  EXPECT_THAT(assembler.Add("3/0", bad.SerializeAsString(), "snapshots/3@3"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@")));
  EXPECT_EQ(assembler.latest_next_offset(), -1);
}

// Format 2: the snapshot refers to its pools' sealed segments, records of their own; the
// assembler attaches those the last snapshot refers to, in order, and honours tombstones.
std::string Format2Snapshot(int64_t next_offset, uint64_t first, uint32_t segments) {
  v1::Snapshot s;
  s.set_format(2);
  s.set_group("g");
  v1::PartitionOffset* o = s.add_offsets();
  o->set_topic("results");
  o->set_partition(3);
  o->set_next_offset(next_offset);
  v1::PoolSnapshot& p = *s.add_pools();
  p.set_pool("chess");
  p.set_dedup_first_segment(first);
  p.set_dedup_segments(segments);
  return s.SerializeAsString();
}

SnapshotRecord Segment(uint64_t seq, const std::string& group = "g") {
  DedupWindow::Segment segment(seq);
  segment.Add(absl::StrCat("a", seq));
  segment.Add(absl::StrCat("b", seq));
  return {DedupSegmentKey(3, "chess", seq),
          SerializeDedupSegment(group, "results", 3, "chess", segment)};
}

void AddAll(SnapshotAssembler& assembler, const std::vector<ChunkRecord>& chunks) {
  for (const ChunkRecord& r : chunks) ASSERT_THAT(assembler.Add(r.key, r.value, "t"), IsOk());
}

TEST(SnapshotChunksTest, AttachesTheSegmentsTheLastSnapshotRefersTo) {
  SnapshotAssembler assembler("g", "results", 3);
  for (uint64_t seq : {0, 1, 2}) {
    SnapshotRecord r = Segment(seq);
    ASSERT_THAT(assembler.Add(r.key, *r.value, "t"), IsOk());
  }
  AddAll(assembler, Split(10, 1, Format2Snapshot(10, 0, 3)));
  // The next snapshot forgot segment 0 (a tombstone) and wrote 3.
  SnapshotRecord s3 = Segment(3);
  ASSERT_THAT(assembler.Add(s3.key, *s3.value, "t"), IsOk());
  ASSERT_THAT(assembler.Add(DedupSegmentKey(3, "chess", 0), std::nullopt, "t"), IsOk());
  AddAll(assembler, Split(20, 2, Format2Snapshot(20, 1, 3)));
  auto latest = assembler.Latest();
  ASSERT_THAT(latest, IsOk());
  ASSERT_TRUE(latest->has_value());
  const v1::Snapshot& s = **latest;
  ASSERT_EQ(s.dedup_segments_size(), 3);
  for (int i = 0; i < 3; ++i) {
    const v1::DedupSegment& d = s.dedup_segments(i);
    EXPECT_EQ(d.seq(), static_cast<uint64_t>(i + 1));
    EXPECT_EQ(d.pool(), "chess");
    EXPECT_THAT(d.game_ids(),
                ::testing::ElementsAre(absl::StrCat("a", i + 1), absl::StrCat("b", i + 1)));
    EXPECT_EQ(d.group(), "");  // stand-alone form
  }
}

TEST(SnapshotChunksTest, ASegmentTheSnapshotNeedsButTheTopicLacksIsDataLoss) {
  SnapshotAssembler assembler("g", "results", 3);
  SnapshotRecord s1 = Segment(1);
  ASSERT_THAT(assembler.Add(s1.key, *s1.value, "t"), IsOk());
  ASSERT_THAT(assembler.Add(s1.key, std::nullopt, "t"), IsOk());  // deleted
  AddAll(assembler, Split(10, 1, Format2Snapshot(10, 1, 1)));
  EXPECT_THAT(assembler.Latest(), StatusIs(absl::StatusCode::kDataLoss,
                                           ::testing::HasSubstr("segment 1 of pool 'chess'")));
}

TEST(SnapshotChunksTest, RefusesAnotherGroupsSegmentsAndSegmentsUnderTheWrongKey) {
  SnapshotAssembler assembler("g", "results", 3);
  SnapshotRecord other = Segment(0, "other");
  EXPECT_THAT(
      assembler.Add(other.key, *other.value, "snapshots/3@0"),
      StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::HasSubstr("group 'other'")));
  SnapshotRecord moved = Segment(0);
  EXPECT_THAT(assembler.Add(DedupSegmentKey(3, "chess", 5), *moved.value, "snapshots/3@1"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("its key")));
  EXPECT_THAT(assembler.Add(moved.key, "\xff\xff", "snapshots/3@2"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@2")));
  EXPECT_FALSE(IsDedupSegmentKey("3/12"));
  EXPECT_TRUE(IsDedupSegmentKey(moved.key));
}

}  // namespace
}  // namespace ratingd
