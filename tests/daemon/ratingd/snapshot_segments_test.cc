// Snapshot format 2 through the fakes: the de-duplication window's sealed segments are
// written to the snapshots topic once each and deleted by a tombstone once forgotten, and a
// new owner restores the window exactly from the compacted topic (or a local file). Expected
// values: the segment numbers are hand-calculated from the input's construction (below), and
// the deltas are checked against an offline replay (OfflineDeltas) of the same results.
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "daemon/ratingd/dedup_segments.h"
#include "daemon/ratingd/partition_state.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/fakes/output_checks.h"
#include "tests/fakes/pipeline_harness.h"

namespace ratingd::testing {
namespace {

using ::testing::ElementsAre;

DaemonConfig SmallWindow(const std::string& dir) {
  DaemonConfig c = TestConfig(dir);
  c.pool.dedup_window = 8;  // segments of 8 ids
  c.snapshot_interval = absl::Seconds(1);
  return c;
}

// Lets the snapshot interval pass: the next commit starts a snapshot, the one after carries it.
void Snapshot(Instance& instance, FakeClock& clock) {
  clock.Advance(instance.config.snapshot_interval);
  instance.consumer.Poll();
  clock.Advance(instance.config.commit_interval);
  instance.consumer.Poll();
}

// The de-duplication records in the snapshots topic from index `from` on: "<seq>" for a
// segment, "-<seq>" for a tombstone.
std::vector<std::string> DedupRecords(const FakeBroker& broker, size_t from) {
  std::vector<std::string> out;
  const std::vector<FakeRecord>& log = broker.snapshots.at(0);
  for (size_t i = from; i < log.size(); ++i) {
    if (!IsDedupSegmentKey(log[i].key)) continue;
    const std::string seq = log[i].key.substr(std::string("0/dedup/").size(), 1);
    out.push_back(log[i].tombstone ? "-" + seq : seq);
  }
  return out;
}

void AppendGame(FakeBroker& broker, int i) {
  broker.Append(0, "chess", Win("chess", absl::StrCat("chess-", i), "a", "b"));
}

TEST(SnapshotSegmentsTest, SegmentsAreWrittenOnceDeletedOnceForgottenAndRestoreExactly) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, SmallWindow(TempSnapshotDir()), &clock);
  a.consumer.Assign({0});
  // Games 0..19: segment 0 = ids 0-7, 1 = 8-15, open 16-19. The window (8) is 12..19:
  // segment 0 is forgotten before any snapshot, 1 is kept from its 5th id on. Every
  // forgotten segment gets a tombstone, written or not (docs/ARCHITECTURE.md §5.2).
  AppendGames(broker, 0, "chess", 0, 20);
  ProcessAndCommit(a, clock);
  Snapshot(a, clock);
  ASSERT_TRUE(broker.snapshots.count(0));
  EXPECT_THAT(DedupRecords(broker, 0), ElementsAre("-0", "1"));
  const size_t first = broker.snapshots.at(0).size();

  // Games 20..39 (segments 2 = 16-23, 3 = 24-31, 4 = 32-39), then 36..39 again (in the
  // window: duplicates) and 10 again (forgotten: applied). 41 ids: the window is ids 33..39
  // and 10, i.e. segment 4 less its first id, and the open segment 5 = [10].
  AppendGames(broker, 0, "chess", 20, 20);
  for (int i : {36, 37, 38, 39, 10}) AppendGame(broker, i);
  ProcessAndCommit(a, clock);
  Snapshot(a, clock);
  // Only segment 4 is new in the topic (2 and 3 came and went between snapshots, and are
  // deleted all the same), and 1, written before, is deleted.
  EXPECT_THAT(DedupRecords(broker, first), ElementsAre("-1", "-2", "-3", "4"));
  const DedupWindow& kept = a.pipeline.registry().FindPool("chess")->dedup_window();
  EXPECT_EQ(kept.front_skip(), 1u);
  EXPECT_EQ(kept.open_seq(), 5u);
  const std::vector<std::string> window = kept.Ids();
  EXPECT_EQ(window.front(), "chess-33");
  EXPECT_EQ(window.back(), "chess-10");

  // The local file stands alone: it carries segment 4 itself.
  const std::string path = SnapshotPath(a.config.snapshot_dir, a.config.results_topic, 0);
  std::optional<v1::Snapshot> file;
  for (int i = 0; i < 500 && !(file && file->offsets(0).next_offset() == 45); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    absl::StatusOr<std::optional<v1::Snapshot>> read = ReadSnapshotFile(path);
    if (read.ok()) file = *read;
  }
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->format(), kSnapshotFormat);
  ASSERT_EQ(file->dedup_segments_size(), 1);
  EXPECT_EQ(file->dedup_segments(0).seq(), 4u);
  auto from_file =
      PartitionState::FromSnapshot(*file, a.config.pool, ParamsFingerprint(a.config.pool));
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  EXPECT_EQ(from_file->pools.at("chess")->dedup_window().Ids(), window);

  // A is gone; compaction runs; B restores from the topic alone (its own folder).
  broker.CompactSnapshots();
  Instance b(&broker, SmallWindow(TempSnapshotDir()), &clock);
  b.consumer.Assign({0});
  ASSERT_TRUE(b.pipeline.fatal().ok()) << b.pipeline.fatal();
  const LivePool* restored = b.pipeline.registry().FindPool("chess");
  ASSERT_NE(restored, nullptr);
  EXPECT_EQ(restored->dedup_window().Ids(), window);
  // 33 is still in the window (a duplicate), 32 is not (applied), then new games.
  for (int i : {33, 32}) AppendGame(broker, i);
  AppendGames(broker, 0, "chess", 40, 10);
  ProcessAndCommit(b, clock);
  Snapshot(b, clock);
  EXPECT_TRUE(b.pipeline.fatal().ok());
  EXPECT_TRUE(SequencesOneToN(broker));
  EXPECT_TRUE(SameDeltas(DeltasByKey(broker), OfflineDeltas(broker, b.config.pool)));
  // Construction: 20 + 20 + 1 (10 again) + 1 (32 again) + 10 results applied, 2 deltas each.
  EXPECT_EQ(broker.deltas.size(), 2u * 52);
}

// The segment keys a compacted snapshots topic still holds, as "<seq>".
std::vector<std::string> LiveSegments(const FakeBroker& broker) {
  FakeBroker compacted = broker;
  compacted.CompactSnapshots();
  return DedupRecords(compacted, 0);
}

// While the input is idle, commits write the sealed segments ahead of the next snapshot,
// which then refers to them without writing them again. Segments written ahead by an
// instance that dies before its next snapshot are not known to the one that restores its
// last snapshot; they are deleted all the same once forgotten, so that the compacted topic
// holds exactly the segments of the last snapshot. Expected segment numbers are
// hand-calculated from the input (segments of 8 ids, a window of 8).
TEST(SnapshotSegmentsTest, SegmentsAreWrittenAheadWhileIdleAndNoneIsLeftBehindByACrash) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, SmallWindow(TempSnapshotDir()), &clock);
  a.consumer.set_report_idle(true);
  a.consumer.Assign({0});
  // Games 0..19: segments 0 and 1 sealed, 0 forgotten. The idle commit writes 1 ahead, and
  // no tombstone (the last committed snapshot may still refer to a forgotten segment).
  AppendGames(broker, 0, "chess", 0, 20);
  a.consumer.PollAll();
  clock.Advance(a.config.min_commit_interval);
  a.consumer.Poll();
  EXPECT_EQ(broker.commits, 1);
  EXPECT_THAT(DedupRecords(broker, 0), ElementsAre("1"));
  // Nothing more to write ahead and no record: idle turns commit nothing.
  for (int i = 0; i < 3; ++i) {
    clock.Advance(a.config.min_commit_interval);
    a.consumer.Poll();
  }
  EXPECT_EQ(broker.commits, 1);
  // The snapshot (window 12..19: segment 1 and the open 16..19) refers to 1 without writing
  // it again, and deletes 0.
  size_t mark = broker.snapshots.at(0).size();
  Snapshot(a, clock);
  EXPECT_THAT(DedupRecords(broker, mark), ElementsAre("-0"));

  // Games 20..35 in two idle batches: segments 2 (16-23) and 3 (24-31) sealed and written
  // ahead; the window is 28..35, so 1 and 2 are forgotten, but not deleted before a snapshot.
  mark = broker.snapshots.at(0).size();
  AppendGames(broker, 0, "chess", 20, 8);
  a.consumer.PollAll();
  clock.Advance(a.config.min_commit_interval);
  a.consumer.Poll();
  AppendGames(broker, 0, "chess", 28, 8);
  a.consumer.PollAll();
  clock.Advance(a.config.min_commit_interval);
  a.consumer.Poll();
  EXPECT_THAT(DedupRecords(broker, mark), ElementsAre("2", "3"));
  EXPECT_EQ(broker.committed_offsets.at(0), 36);

  // A dies before its next snapshot. B restores the last one (offset 20, written until
  // segment 2) and replays 20..35: it seals 2 and forgets it within the replay, never having
  // written it, and deletes it all the same at its first snapshot, with 1.
  Instance b(&broker, SmallWindow(TempSnapshotDir()), &clock);
  b.consumer.set_report_idle(true);
  b.consumer.Assign({0});
  ASSERT_TRUE(b.pipeline.fatal().ok()) << b.pipeline.fatal();
  ProcessAndCommit(b, clock);
  Snapshot(b, clock);
  EXPECT_TRUE(b.pipeline.fatal().ok()) << b.pipeline.fatal();
  const DedupWindow& window = b.pipeline.registry().FindPool("chess")->dedup_window();
  ASSERT_EQ(window.sealed().size(), 1u);
  EXPECT_EQ(window.sealed().front()->seq, 3u);
  EXPECT_THAT(LiveSegments(broker), ElementsAre("3"));

  // A third instance restores B's snapshot from the compacted topic alone.
  broker.CompactSnapshots();
  Instance c(&broker, SmallWindow(TempSnapshotDir()), &clock);
  c.consumer.Assign({0});
  ASSERT_TRUE(c.pipeline.fatal().ok()) << c.pipeline.fatal();
  EXPECT_EQ(c.pipeline.registry().FindPool("chess")->dedup_window().Ids(), window.Ids());
}

TEST(SnapshotSegmentsTest, ASnapshotOfTheOldFormatStillRestores) {
  // Format 1 kept every id in recent_game_ids and had no segments.
  DaemonConfig config = SmallWindow("");
  PartitionState state;
  state.topic = config.results_topic;
  ASSERT_TRUE(state.GetOrCreate("chess", config.pool).ok());
  v1::Snapshot old = state.ToSnapshot(ParamsFingerprint(config.pool));
  old.set_format(1);
  v1::PoolSnapshot& pool = *old.mutable_pools(0);
  for (int i = 0; i < 8; ++i) pool.add_recent_game_ids(absl::StrCat("g", i));
  auto restored = PartitionState::FromSnapshot(old, config.pool, ParamsFingerprint(config.pool));
  ASSERT_TRUE(restored.ok()) << restored.status();
  DedupWindow& window = restored->pools.at("chess")->dedup_window();
  EXPECT_EQ(window.size(), 8u);
  EXPECT_TRUE(window.Contains("g0"));
  // Nothing of it is in the topic yet: the next snapshot writes it whole.
  EXPECT_EQ(window.TakeUnwritten().size(), 1u);
  old.set_format(kSnapshotFormat + 1);  // a format from the future is refused
  EXPECT_FALSE(PartitionState::FromSnapshot(old, config.pool, ParamsFingerprint(config.pool)).ok());
}

}  // namespace
}  // namespace ratingd::testing
