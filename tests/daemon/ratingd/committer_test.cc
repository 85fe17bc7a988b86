// Committer, directly, on a fake sink: what a commit holds (the offsets of the partitions that
// moved; the snapshots of those whose offset moved since their last one), when one is due,
// and what an aborted one leaves. The partitions' offsets are set by hand: the expected
// values follow from that construction and from docs/ARCHITECTURE.md §4.2-4.3.
#include "daemon/ratingd/committer.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/fakes/pipeline_harness.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd::testing {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

struct Commits {
  Commits()
      : config(TestConfig(TempSnapshotDir())),
        committer(config, fingerprint, &registry, &sink, &metrics, &clock) {}
  // Holds `partition` with one pool ("pool<partition>", one result), read up to
  // `next_offset`, its last commit and snapshot at the offsets given (-1: none).
  PartitionState& Hold(int32_t partition, int64_t next_offset, int64_t committed,
                       int64_t snapshot) {
    PartitionState state;
    state.topic = config.results_topic;
    state.partition = partition;
    state.next_offset = state.replay_until = next_offset;
    state.Restored(committed, snapshot);
    LivePool* pool = *state.GetOrCreate(absl::StrCat("pool", partition), config.pool);
    std::vector<v1::RankingDelta> deltas;
    std::optional<MlJob> job;
    EXPECT_TRUE(pool->Apply(ratings::testing::Order({"a", "b"}), "g1",
                            /*event_time=*/nullptr, -1, &deltas, &job)
                    .ok());
    return registry.Insert(std::move(state));
  }

  DaemonConfig config;
  std::string fingerprint = ParamsFingerprint(config.pool);
  FakeBroker broker{4};
  FakeClock clock;
  Metrics metrics{100};
  FakeOutputSink sink{&broker};
  PartitionRegistry registry;
  Committer committer;
};

TEST(CommitterTest, NothingToCommitKeepsTheTransactionOpen) {
  Commits c;
  ASSERT_THAT(c.committer.Begin(), IsOk());
  EXPECT_TRUE(c.committer.open());
  EXPECT_TRUE(c.sink.open());
  c.Hold(0, 5, 5, 5);  // at its last commit and snapshot
  c.clock.Advance(absl::Seconds(1));
  EXPECT_THAT(c.committer.Commit(/*with_snapshots=*/true), IsOk());
  EXPECT_EQ(c.broker.commits, 0);
  EXPECT_TRUE(c.broker.snapshots.empty());
  EXPECT_TRUE(c.committer.open());
  EXPECT_TRUE(c.sink.open());
  // The last-commit gauge still moves (the commit point passed).
  EXPECT_EQ(c.metrics.last_commit().Value(),
            absl::ToDoubleSeconds(c.clock.Now() - absl::UnixEpoch()));
  EXPECT_THAT(c.committer.Begin(), IsOk());  // open already: the sink is not asked again
}

TEST(CommitterTest, CommitsTheOffsetsOfThePartitionsThatMovedOnly) {
  Commits c;
  ASSERT_THAT(c.committer.Begin(), IsOk());
  c.Hold(0, 5, 3, -1);   // moved from 3 to 5
  c.Hold(1, 2, 2, -1);   // at its last commit
  c.Hold(2, 0, -1, -1);  // nothing read yet
  PartitionState& replaying = c.Hold(3, 1, 4, -1);
  replaying.replay_until = 4;  // below its commit: committing would move it backwards
  ASSERT_THAT(c.committer.Commit(/*with_snapshots=*/false), IsOk());
  EXPECT_EQ(c.broker.commits, 1);
  EXPECT_EQ(c.broker.committed_offsets, (std::map<int32_t, int64_t>{{0, 5}}));
  EXPECT_EQ(c.registry.Find(0)->committed_offset(), 5);
  EXPECT_EQ(c.registry.Find(3)->committed_offset(), 4);
  EXPECT_TRUE(c.broker.snapshots.empty());  // none asked for
  EXPECT_TRUE(c.committer.open());          // the next transaction began
  EXPECT_TRUE(c.sink.open());
  ASSERT_THAT(c.committer.Commit(false), IsOk());  // nothing moved since
  EXPECT_EQ(c.broker.commits, 1);
  EXPECT_EQ(c.metrics.Transactions("committed").Value(), 1);
}

TEST(CommitterTest, SnapshotsOnlyThePartitionsWhoseOffsetMoved) {
  Commits c;
  ASSERT_THAT(c.committer.Begin(), IsOk());
  c.Hold(0, 5, 5, -1);  // committed at 5, never snapshotted
  c.Hold(1, 2, 2, 2);   // its snapshot is current
  ASSERT_THAT(c.committer.Commit(/*with_snapshots=*/true), IsOk());
  EXPECT_EQ(c.broker.commits, 1);                   // the snapshot is something to commit
  EXPECT_TRUE(c.broker.committed_offsets.empty());  // but no offset moved
  ASSERT_EQ(c.broker.snapshots.size(), 1u);
  EXPECT_EQ(c.broker.snapshots.at(0).size(), 1u);  // one chunk
  EXPECT_EQ(c.registry.Find(0)->snapshot_offset(), 5);
  FakeSnapshotSource topic(&c.broker, c.config.group, c.config.results_topic);
  absl::StatusOr<std::optional<v1::Snapshot>> latest = topic.Latest(0);
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->offsets(0).next_offset(), 5);
  ASSERT_EQ((*latest)->pools_size(), 1);
  EXPECT_EQ((*latest)->pools(0).pool(), "pool0");
  EXPECT_EQ((*latest)->params_fingerprint(), c.fingerprint);
  // The committed snapshot also goes to the local file; partition 1 has none.
  c.committer.WaitSnapshotWrites();
  absl::StatusOr<std::optional<v1::Snapshot>> file =
      ReadSnapshotFile(SnapshotPath(c.config.snapshot_dir, c.config.results_topic, 0));
  ASSERT_TRUE(file.ok() && file->has_value());
  EXPECT_EQ((*file)->offsets(0).next_offset(), 5);
  file = ReadSnapshotFile(SnapshotPath(c.config.snapshot_dir, c.config.results_topic, 1));
  ASSERT_TRUE(file.ok());
  EXPECT_FALSE(file->has_value());
  // Nothing moved since: no snapshot, no commit.
  ASSERT_THAT(c.committer.Commit(true), IsOk());
  EXPECT_EQ(c.broker.commits, 1);
  EXPECT_EQ(c.broker.snapshots.at(0).size(), 1u);
}

TEST(CommitterTest, CommitAndSnapshotsAreDueWithTheClockOrTheRecordCount) {
  Commits c;  // commit every 100 ms, snapshots every 30 s
  ASSERT_THAT(c.committer.Begin(), IsOk());
  EXPECT_FALSE(c.committer.CommitDue());
  c.clock.Advance(absl::Milliseconds(99));
  EXPECT_FALSE(c.committer.CommitDue());
  c.clock.Advance(absl::Milliseconds(1));
  EXPECT_TRUE(c.committer.CommitDue());
  EXPECT_FALSE(c.committer.SnapshotsDue());
  c.clock.Advance(absl::Seconds(30) - absl::Milliseconds(100));  // 30 s since construction
  EXPECT_TRUE(c.committer.SnapshotsDue());
  ASSERT_THAT(c.committer.Commit(true), IsOk());  // nothing to commit: both restart
  EXPECT_FALSE(c.committer.CommitDue());
  EXPECT_FALSE(c.committer.SnapshotsDue());
  // With the input idle: as soon as min_commit_interval (10 ms) passed, if a record was read.
  c.clock.Advance(c.config.min_commit_interval);
  EXPECT_FALSE(c.committer.CommitDue(/*input_idle=*/true));  // nothing read
  c.committer.CountRecord();
  EXPECT_TRUE(c.committer.CommitDue(/*input_idle=*/true));
  EXPECT_FALSE(c.committer.CommitDue(/*input_idle=*/false));  // 10 ms < 100 ms
  for (size_t i = 1; i < Committer::kMaxTransactionRecords; ++i) c.committer.CountRecord();
  EXPECT_TRUE(c.committer.CommitDue());  // the record count, before the interval
}

TEST(CommitterTest, PartitionWhoseReplayEndedIsSnapshottedAtTheNextCommit) {
  Commits c;
  ASSERT_THAT(c.committer.Begin(), IsOk());
  c.Hold(0, 5, 5, 2).RequestSnapshot();  // replayed from its snapshot at 2 up to 5
  c.Hold(1, 7, 7, 3);                    // not due: waits for the snapshot interval
  ASSERT_THAT(c.committer.Commit(/*with_snapshots=*/false), IsOk());
  EXPECT_EQ(c.broker.commits, 1);
  ASSERT_EQ(c.broker.snapshots.size(), 1u);
  EXPECT_EQ(c.broker.snapshots.at(0).size(), 1u);
  EXPECT_EQ(c.registry.Find(0)->snapshot_offset(), 5);
  EXPECT_FALSE(c.registry.Find(0)->snapshot_due());
  EXPECT_EQ(c.registry.Find(1)->snapshot_offset(), 3);
}

TEST(CommitterTest, AbortedCommitLeavesNothingVisible) {
  Commits c;
  ASSERT_THAT(c.committer.Begin(), IsOk());
  c.Hold(0, 5, 3, -1);
  c.sink.FailNextCommits(1);
  EXPECT_THAT(c.committer.Commit(true), StatusIs(absl::StatusCode::kAborted, HasSubstr("fake")));
  EXPECT_EQ(c.broker.commits, 0);
  EXPECT_TRUE(c.broker.snapshots.empty());
  EXPECT_TRUE(c.broker.committed_offsets.empty());
  EXPECT_EQ(c.registry.Find(0)->committed_offset(), 3);
  EXPECT_EQ(c.registry.Find(0)->snapshot_offset(), -1);
  EXPECT_TRUE(c.committer.open());  // to be aborted by the caller
  ASSERT_THAT(c.committer.Abort(), IsOk());
  EXPECT_FALSE(c.committer.open());
  EXPECT_FALSE(c.sink.open());
  EXPECT_EQ(c.broker.aborts, 1);
  EXPECT_THAT(c.committer.Commit(false),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("no transaction")));
  ASSERT_THAT(c.committer.Begin(), IsOk());
  ASSERT_THAT(c.committer.Commit(true), IsOk());  // the same state commits now
  EXPECT_EQ(c.broker.committed_offsets, (std::map<int32_t, int64_t>{{0, 5}}));
  EXPECT_EQ(c.broker.snapshots.at(0).size(), 1u);
  EXPECT_EQ(c.metrics.Transactions("aborted").Value(), 1);
  EXPECT_EQ(c.metrics.Transactions("committed").Value(), 1);
}

}  // namespace
}  // namespace ratingd::testing
