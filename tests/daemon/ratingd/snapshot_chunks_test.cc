// Snapshots in the compacted snapshots topic: cutting a serialised snapshot into
// chunks and finding the last complete one among a partition's records. Expected values
// come from the construction of the inputs (which snapshot was written last and whole).
#include "daemon/ratingd/snapshot_chunks.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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
  for (const ChunkRecord& r : records) ASSERT_THAT(assembler.Add(r.value, "test"), IsOk());
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
  ASSERT_THAT(assembler.Add(records[0].value, "test"), IsOk());
  EXPECT_EQ(assembler.latest_next_offset(), 0);
}

TEST(SnapshotChunksTest, LatestCompleteWinsOverIncompleteAndOlder) {
  const std::string old_bytes = SnapshotBytes(10, 20);
  const std::string new_bytes = SnapshotBytes(90, 5);  // fewer chunks than the old one
  const std::vector<ChunkRecord> old_records = Split(10, 1, old_bytes);
  const std::vector<ChunkRecord> new_records = Split(90, 2, new_bytes);
  ASSERT_GT(old_records.size(), new_records.size());
  SnapshotAssembler assembler("g", "results", 3);
  for (const ChunkRecord& r : old_records) ASSERT_THAT(assembler.Add(r.value, "t"), IsOk());
  // The newer snapshot's chunks, all but the last: the old one is still the latest.
  for (size_t i = 0; i + 1 < new_records.size(); ++i) {
    ASSERT_THAT(assembler.Add(new_records[i].value, "t"), IsOk());
  }
  EXPECT_EQ(assembler.latest_next_offset(), 10);
  ASSERT_THAT(assembler.Add(new_records.back().value, "t"), IsOk());
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
    ASSERT_THAT(assembler.Add(old_records[i].value, "t"), IsOk());
  }
  for (const ChunkRecord& r : new_records) ASSERT_THAT(assembler.Add(r.value, "t"), IsOk());
  EXPECT_EQ(assembler.latest_next_offset(), 90);
  EXPECT_EQ((*assembler.Latest())->SerializeAsString(), new_bytes);
  EXPECT_EQ(assembler.incomplete(), 1u);
}

TEST(SnapshotChunksTest, RefusesAnotherGroupsOrPartitionsChunks) {
  const std::vector<ChunkRecord> other_group =
      SplitSnapshot("other", "results", 3, 5, 1, SnapshotBytes(5, 1));
  SnapshotAssembler assembler("g", "results", 3);
  EXPECT_THAT(
      assembler.Add(other_group[0].value, "snapshots/3@0"),
      StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::HasSubstr("--snapshots-topic")));
  const std::vector<ChunkRecord> other_partition =
      SplitSnapshot("g", "results", 4, 5, 1, SnapshotBytes(5, 1));
  EXPECT_THAT(
      assembler.Add(other_partition[0].value, "snapshots/3@1"),
      StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::HasSubstr("--snapshots-topic")));
  EXPECT_EQ(assembler.latest_next_offset(), -1);
}

TEST(SnapshotChunksTest, GarbageAndInconsistentChunksAreDataLoss) {
  SnapshotAssembler assembler("g", "results", 3);
  EXPECT_THAT(assembler.Add("\xff\xff\xff", "snapshots/3@0"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@")));
  v1::SnapshotChunk bad;
  bad.set_group("g");
  bad.set_topic("results");
  bad.set_partition(3);
  bad.set_count(2);
  bad.set_index(2);  // out of range
  EXPECT_THAT(assembler.Add(bad.SerializeAsString(), "snapshots/3@1"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@")));
  // Two chunks of one snapshot id that disagree on the chunk count.
  bad.set_index(0);
  ASSERT_THAT(assembler.Add(bad.SerializeAsString(), "snapshots/3@2"), IsOk());
  bad.set_count(3);
  bad.set_index(1);
  EXPECT_THAT(assembler.Add(bad.SerializeAsString(), "snapshots/3@3"),
              StatusIs(absl::StatusCode::kDataLoss, ::testing::HasSubstr("snapshots/3@")));
  EXPECT_EQ(assembler.latest_next_offset(), -1);
}

}  // namespace
}  // namespace ratingd
