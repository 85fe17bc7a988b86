// Snapshots serialised on the serializer's thread: a round comes back as the bytes and the
// chunks the consumer thread would have made itself, and a discarded round never comes
// back. Expected values: the same capture serialised here, on this thread.
#include "daemon/ratingd/snapshot_serializer.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratingd::testing::Apply;
using ::ratings::testing::IsOk;
using ::ratings::testing::Order;

PartitionState StateOf(int results) {
  LivePoolConfig config;
  config.history_points = 8;
  PartitionState state;
  state.topic = "results";
  state.partition = 2;
  state.next_offset = results;
  LivePool* pool = *state.GetOrCreate("chess", config);
  for (int i = 0; i < results; ++i) {
    EXPECT_THAT(Apply(*pool, Order({absl::StrCat("a", i % 5), absl::StrCat("b", i % 7)}),
                      absl::StrCat("g", i)),
                IsOk());
  }
  return state;
}

CapturedSnapshot CaptureOf(const PartitionState& state, uint64_t id) {
  CapturedSnapshot captured;
  captured.partition = state.partition;
  captured.next_offset = state.next_offset;
  captured.snapshot_id = id;
  captured.capture = state.CaptureSnapshot("fp", "g", 5);
  captured.dedup.push_back({.key = "2/dedup/0/chess", .value = std::nullopt});
  return captured;
}

TEST(SnapshotSerializerTest, ARoundComesBackAsTheSnapshotsBytesAndChunks) {
  const PartitionState state = StateOf(40);
  const std::string expected = state.SerializeSnapshot("fp", "g", 5);
  SnapshotSerializer serializer("g", "results");
  EXPECT_FALSE(serializer.busy());
  EXPECT_EQ(serializer.Take(/*wait=*/true), std::nullopt);  // nothing in flight
  serializer.Submit({CaptureOf(state, 7)});
  EXPECT_TRUE(serializer.busy());
  std::optional<std::vector<SerializedSnapshot>> round = serializer.Take(/*wait=*/true);
  ASSERT_TRUE(round.has_value());
  EXPECT_FALSE(serializer.busy());
  ASSERT_EQ(round->size(), 1u);
  const SerializedSnapshot& s = (*round)[0];
  EXPECT_EQ(s.partition, 2);
  EXPECT_EQ(s.next_offset, 40);
  EXPECT_EQ(*s.bytes, expected);
  const std::vector<ChunkRecord> chunks = SplitSnapshot("g", "results", 2, 40, 7, expected);
  ASSERT_EQ(s.chunks.size(), chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(s.chunks[i].key, chunks[i].key);
    EXPECT_EQ(s.chunks[i].value, chunks[i].value);
  }
  ASSERT_EQ(s.dedup.size(), 1u);  // handed through as captured
  EXPECT_EQ(s.dedup[0].key, "2/dedup/0/chess");
  EXPECT_EQ(serializer.Take(/*wait=*/true), std::nullopt);  // taken once
}

TEST(SnapshotSerializerTest, ADiscardedRoundIsNeverTaken) {
  const PartitionState before = StateOf(30);
  const PartitionState after = StateOf(50);
  SnapshotSerializer serializer("g", "results");
  serializer.Submit({CaptureOf(before, 1)});
  serializer.Discard();  // an abort: the state it captured is being rebuilt
  EXPECT_FALSE(serializer.busy());
  EXPECT_EQ(serializer.Take(/*wait=*/true), std::nullopt);
  // The next round is the one taken, even if the discarded one finishes after it is submitted.
  serializer.Submit({CaptureOf(after, 2)});
  std::optional<std::vector<SerializedSnapshot>> round = serializer.Take(/*wait=*/true);
  ASSERT_TRUE(round.has_value());
  ASSERT_EQ(round->size(), 1u);
  EXPECT_EQ((*round)[0].next_offset, 50);
  EXPECT_EQ(*(*round)[0].bytes, after.SerializeSnapshot("fp", "g", 5));
}

}  // namespace
}  // namespace ratingd
