// RecordProcessor: directly (replay without emitting, the position guard) and through the
// pipeline on the fakes (dead letters, duplicates). Expected values come from the input's
// construction (which record sits at which offset and why it is invalid), the decoder's
// contract (docs/CONTRACTS.md §1.3, §1.5), or OfflineDeltas (the same results replayed
// offline into fresh LivePools).
#include "daemon/ratingd/record_processor.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/model.h"
#include "tests/fakes/output_checks.h"
#include "tests/fakes/pipeline_harness.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A RecordProcessor and its collaborators, on a fake sink with an open transaction.
struct Processor {
  explicit Processor(DaemonConfig c)
      : config(std::move(c)),
        leaderboards(config.leaderboard_interval, &clock, &metrics),
        processor(config, &registry, &sink, &leaderboards, &view_builder, &solver, &metrics,
                  &clock) {
    EXPECT_TRUE(sink.Begin().ok());
  }
  // Processes what AppendGames puts at `offset`: game "<pool>-<offset>", a(offset mod 5)
  // beats a(offset + 1 mod 5).
  absl::Status Feed(int32_t partition, int64_t offset, const std::string& pool) {
    const std::string value =
        Win(pool, absl::StrCat(pool, "-", offset), absl::StrCat("a", offset % 5),
            absl::StrCat("a", (offset + 1) % 5));
    ConsumedRecord record;
    record.partition = partition;
    record.offset = offset;
    record.key = pool;
    record.value = value;
    return processor.Process(record);
  }
  void Hold(int32_t partition, int64_t replay_until) {
    PartitionState state;
    state.topic = config.results_topic;
    state.partition = partition;
    state.replay_until = replay_until;
    registry.Insert(std::move(state));
  }

  DaemonConfig config;
  FakeBroker broker{2};
  FakeClock clock;
  Metrics metrics{100};
  FakeOutputSink sink{&broker};
  PartitionRegistry registry;
  LeaderboardPublisher leaderboards;
  ViewStore views;
  ViewBuilder view_builder{&views};
  MlSolver solver{&metrics};
  RecordProcessor processor;
};

TEST(RecordProcessorTest, ReplayedRecordsRebuildTheStateWithoutEmitting) {
  Processor p(TestConfig(TempSnapshotDir()));
  p.Hold(0, /*replay_until=*/3);
  ASSERT_TRUE(p.Feed(0, 0, "chess").ok());
  ASSERT_TRUE(p.Feed(0, 1, "chess").ok());
  p.processor.FlushDeltas();
  EXPECT_EQ(p.sink.pending(), 0u);
  EXPECT_EQ(p.leaderboards.due(), 0u);
  ASSERT_TRUE(p.Feed(0, 2, "chess").ok());  // the last committed record: caught up
  p.processor.FlushDeltas();
  EXPECT_EQ(p.sink.pending(), 0u);
  EXPECT_TRUE(p.registry.Find(0)->snapshot_due());  // the next commit snapshots it
  EXPECT_TRUE(p.leaderboards.IsDue("chess", Model::kElo));
  EXPECT_TRUE(p.leaderboards.IsDue("chess", Model::kSco));
  EXPECT_FALSE(p.leaderboards.IsDue("chess", Model::kMl));  // ml is off
  EXPECT_EQ(p.metrics.replayed_records().Value(), 3);
  EXPECT_EQ(p.metrics.applied().Value(), 0);

  ASSERT_TRUE(p.Feed(0, 3, "chess").ok());
  p.processor.FlushDeltas();        // deltas are batched per (pool, model) until the commit
  EXPECT_EQ(p.sink.pending(), 2u);  // elo and sco
  EXPECT_EQ(p.registry.Find(0)->next_offset, 4);
  ASSERT_TRUE(p.sink.Commit({}).ok());
  ASSERT_EQ(p.broker.deltas.size(), 2u);
  EXPECT_EQ(p.broker.Deltas()[0].sequence(), 4u);  // the 3 replayed results were applied first
  // The same four results offline: the fourth elo delta is the one emitted.
  FakeBroker offline(1);
  AppendGames(offline, 0, "chess", 0, 4);
  EXPECT_EQ(p.broker.deltas[0].value, OfflineDeltas(offline, p.config.pool).at("chess/elo")[3]);
}

TEST(RecordProcessorTest, IgnoresRecordsBelowThePositionAndOfOtherPartitions) {
  Processor p(TestConfig(TempSnapshotDir()));
  p.Hold(0, 0);
  ASSERT_TRUE(p.Feed(0, 0, "chess").ok());
  ASSERT_TRUE(p.Feed(0, 1, "chess").ok());
  p.processor.FlushDeltas();
  EXPECT_EQ(p.sink.pending(), 4u);
  ASSERT_TRUE(p.Feed(0, 0, "chess").ok());  // re-delivered below the position
  ASSERT_TRUE(p.Feed(1, 0, "go").ok());     // partition 1 is not held
  p.processor.FlushDeltas();
  EXPECT_EQ(p.sink.pending(), 4u);
  EXPECT_EQ(p.registry.Find(0)->next_offset, 2);
  EXPECT_EQ(p.registry.FindPool("chess")->pool().results(), 2u);
  EXPECT_EQ(p.registry.FindPool("go"), nullptr);
  EXPECT_EQ(p.metrics.duplicate().Value(), 0);  // ignored, not a duplicate
}

TEST(RecordProcessorTest, InvalidRecordsGoToTheDeadLetterTopicWithTheirReason) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, TestConfig(TempSnapshotDir()), &clock);
  v1::GameResult solo;  // one standing: too few
  solo.set_pool("chess");
  solo.set_game_id("solo");
  solo.add_standings()->set_agent("a0");
  solo.mutable_standings(0)->set_rank(1);
  const std::string unparseable("\xff\xff\xff", 3);  // a varint that never ends
  broker.Append(0, "chess", Win("chess", "chess-0", "a0", "a1"));
  broker.Append(0, "chess", unparseable);
  broker.Append(0, "go", Win("chess", "chess-2", "a2", "a3"));  // key != pool
  broker.Append(0, "chess", solo.SerializeAsString());
  broker.Append(0, std::nullopt, Win("chess", "chess-4", "a4", "a0"));  // no key
  broker.Append(0, "chess", Win("chess", "chess-5", "a0", "a1"));
  a.consumer.Assign({0});
  a.consumer.PollAll();
  EXPECT_TRUE(broker.dead_letters.empty());  // not committed yet
  clock.Advance(a.config.commit_interval);
  a.consumer.Poll();

  std::vector<std::string> reasons, offsets, keys;
  for (const FakeRecord& letter : broker.dead_letters) {
    reasons.push_back(Header(letter, "x-ratingd-reason"));
    offsets.push_back(Header(letter, "x-src-offset"));
    keys.push_back(letter.key);
    EXPECT_EQ(Header(letter, "x-src-topic"), "ratingd.results");
    EXPECT_EQ(Header(letter, "x-src-partition"), "0");
  }
  // An absent key is refused as not being the pool (the decoder sees an empty key).
  EXPECT_THAT(reasons,
              ElementsAre("unparseable", "key_mismatch", "too_few_standings", "key_mismatch"));
  EXPECT_THAT(offsets, ElementsAre("1", "2", "3", "4"));
  EXPECT_THAT(keys, ElementsAre("chess", "go", "chess", ""));
  ASSERT_EQ(broker.dead_letters.size(), 4u);
  EXPECT_EQ(broker.dead_letters[0].value, unparseable);  // the record itself, whole
  EXPECT_EQ(broker.dead_letters[3].value, broker.results[0][4].value);
  EXPECT_THAT(Header(broker.dead_letters[3], "x-ratingd-error"), HasSubstr("message key ''"));
  // The valid records around them: chess-0 and chess-5, sequences 1 and 2.
  EXPECT_EQ(broker.deltas.size(), 4u);
  EXPECT_TRUE(SequencesOneToN(broker));
  EXPECT_EQ(broker.LastDeltas().at("chess/elo").game_id(), "chess-5");
  EXPECT_EQ(broker.committed_offsets.at(0), 6);  // past every record
  EXPECT_EQ(a.metrics.Rejected("unparseable").Value(), 1);
  EXPECT_EQ(a.metrics.Rejected("key_mismatch").Value(), 2);
  EXPECT_EQ(a.metrics.Rejected("too_few_standings").Value(), 1);
  EXPECT_EQ(a.metrics.dlq_records().Value(), 4);
  EXPECT_EQ(a.metrics.applied().Value(), 2);

  // A is gone; B replays the six committed records: no dead letter twice, then a new one.
  Instance b(&broker, TestConfig(TempSnapshotDir()), &clock);
  b.consumer.Assign({0});
  v1::GameResult no_id;
  no_id.set_pool("chess");
  broker.Append(0, "chess", no_id.SerializeAsString());
  ProcessAndCommit(b, clock);
  ASSERT_EQ(broker.dead_letters.size(), 5u);
  EXPECT_EQ(Header(broker.dead_letters[4], "x-ratingd-reason"), "missing_game_id");
  EXPECT_EQ(Header(broker.dead_letters[4], "x-src-offset"), "6");
  EXPECT_EQ(broker.deltas.size(), 4u);
  EXPECT_EQ(broker.committed_offsets.at(0), 7);
}

TEST(RecordProcessorTest, DuplicateGameIdGivesNoDeltaAndIsCounted) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, TestConfig(TempSnapshotDir()), &clock);
  broker.Append(0, "chess", Win("chess", "g1", "a", "b"));
  broker.Append(0, "chess", Win("chess", "g2", "b", "c"));
  broker.Append(0, "chess", Win("chess", "g1", "b", "a"));  // g1 again (another outcome)
  broker.Append(0, "chess", Win("chess", "g3", "c", "a"));
  a.consumer.Assign({0});
  ProcessAndCommit(a, clock);
  EXPECT_EQ(broker.deltas.size(), 6u);  // 3 applied results x (elo, sco)
  EXPECT_TRUE(SequencesOneToN(broker));
  EXPECT_EQ(broker.LastDeltas().at("chess/sco").results(), 3u);
  EXPECT_EQ(broker.LastDeltas().at("chess/sco").game_id(), "g3");
  EXPECT_TRUE(broker.dead_letters.empty());  // a duplicate is not invalid
  EXPECT_EQ(broker.committed_offsets.at(0), 4);
  EXPECT_EQ(a.metrics.duplicate().Value(), 1);
  EXPECT_EQ(a.metrics.applied().Value(), 3);
  EXPECT_TRUE(SameDeltas(DeltasByKey(broker), OfflineDeltas(broker, a.config.pool)));

  // The window is part of the state: B rebuilds it by replay and still knows g2.
  Instance b(&broker, TestConfig(TempSnapshotDir()), &clock);
  b.consumer.Assign({0});
  broker.Append(0, "chess", Win("chess", "g2", "c", "b"));
  ProcessAndCommit(b, clock);
  EXPECT_EQ(broker.deltas.size(), 6u);
  EXPECT_EQ(b.metrics.duplicate().Value(), 1);
  EXPECT_EQ(broker.committed_offsets.at(0), 5);
}

}  // namespace
}  // namespace ratingd::testing
