// The views through the pipeline on the fakes (view_builder.h, pipeline.h): they follow the
// commits, never an aborted transaction, and never go back while a partition replays.
// Expected values come from the input's construction (AppendGames: n results of a pool are
// sequence n) and from the pool's own report path (ExpectedAnswer, held_pools.h).
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "daemon/ratingd/view_answers.h"
#include "daemon/ratingd/view_store.h"
#include "gtest/gtest.h"
#include "ratings/model.h"
#include "tests/daemon/ratingd/held_pools.h"
#include "tests/fakes/pipeline_harness.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;

// Through the pipeline on the fakes: a pool's view appears with the commit of its results,
// and a transaction that aborts leaves the views of the last commit, until the replayed
// results commit again.
TEST(ViewsPipelineTest, ViewsFollowTheCommitsAndNotTheAbortedTransaction) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, TestConfig(TempSnapshotDir()), &clock);
  a.consumer.Assign({0});
  EXPECT_TRUE(a.pipeline.views().Get()->pools.empty());
  EXPECT_EQ(a.pipeline.views().Get()->held, std::vector<int32_t>{0});
  AppendGames(broker, 0, "chess", 0, 5);
  a.consumer.PollAll();
  EXPECT_TRUE(a.pipeline.views().Get()->pools.empty());  // read, not committed
  clock.Advance(a.config.commit_interval);
  const absl::Time first_commit = clock.Now();
  a.consumer.Poll();
  ASSERT_EQ(broker.commits, 1);
  std::shared_ptr<const Views> views = a.pipeline.views().Get();
  ASSERT_TRUE(views->pools.contains("chess"));
  EXPECT_EQ(views->pools.at("chess")->results, 5u);
  EXPECT_EQ(views->pools.at("chess")->board(Model::kElo)->sequence(), 5u);  // construction
  EXPECT_EQ(views->pools.at("chess")->committed_at, first_commit);

  AppendGames(broker, 0, "chess", 5, 3);
  a.consumer.PollAll();
  a.sink.FailNextCommits(1);
  clock.Advance(a.config.commit_interval);
  a.consumer.Poll();
  ASSERT_EQ(broker.aborts, 1);
  EXPECT_EQ(a.pipeline.views().Get()->pools.at("chess")->results, 5u);  // the last commit's
  ProcessAndCommit(a, clock);
  views = a.pipeline.views().Get();
  EXPECT_EQ(views->pools.at("chess")->results, 8u);
  EXPECT_EQ(views->pools.at("chess")->board(Model::kSco)->sequence(), 8u);
  const LivePool* live = a.pipeline.registry().FindPool("chess");
  ASSERT_NE(live, nullptr);
  EXPECT_EQ(LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kElo), a.config).body,
            ExpectedAnswer(*live, Model::kElo, 0, views->pools.at("chess")->committed_at));
}

// An instance that takes over a partition replays its committed records; once the replay
// reaches the committed offset, its views show that state at once, before any commit of its
// own (it turns ready then, and new records may be seconds away). Expected: the 5 results
// the first instance committed (construction).
TEST(ViewsPipelineTest, AReplayedPartitionsViewsArePublishedWhenTheReplayEnds) {
  FakeBroker broker(1);
  FakeClock clock;
  const DaemonConfig config = TestConfig(TempSnapshotDir());
  {
    Instance a(&broker, config, &clock);
    a.consumer.Assign({0});
    AppendGames(broker, 0, "chess", 0, 5);
    ProcessAndCommit(a, clock);
    ASSERT_EQ(broker.commits, 1);
  }
  Instance b(&broker, TestConfig(TempSnapshotDir()), &clock);
  b.consumer.Assign({0});
  b.consumer.PollAll();  // the replay, and no new record: nothing to commit
  EXPECT_EQ(broker.commits, 1);
  const std::shared_ptr<const Views> views = b.pipeline.views().Get();
  ASSERT_TRUE(views->pools.contains("chess"));
  EXPECT_EQ(views->pools.at("chess")->results, 5u);
  EXPECT_EQ(views->pools.at("chess")->board(Model::kElo)->sequence(), 5u);
}

// A rollback restores the partition's last snapshot, older than its last commit, and replays
// up to the commit: the views stay those of the commit through the restore and through
// commits during the replay (the partition's count never goes back), the pool created after
// the snapshot stays listed, and the replay's end shows the same state. Expected counts: the
// input's construction (5 + 3 chess results, 2 go results committed; 2 more chess aborted).
TEST(ViewsPipelineTest, ARollbacksReplayNeverShowsAStateOlderThanTheLastCommit) {
  FakeBroker broker(1);
  FakeClock clock;
  DaemonConfig config = TestConfig(TempSnapshotDir());
  config.snapshot_interval = config.commit_interval;  // a snapshot after every commit
  Instance a(&broker, config, &clock);
  a.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 0, 5);
  ProcessAndCommit(a, clock);  // commits 5; the snapshot at 5 goes into the next transaction
  AppendGames(broker, 0, "chess", 5, 3);
  AppendGames(broker, 0, "go", 0, 2);
  ProcessAndCommit(a, clock);  // commits the snapshot at 5 and offset 10
  ASSERT_EQ(broker.commits, 2);
  auto counts = [&a] {
    const std::shared_ptr<const Views> views = a.pipeline.views().Get();
    std::vector<std::pair<std::string, uint64_t>> listed;
    for (const PoolView* view : views->in_order) listed.emplace_back(view->pool, view->results);
    return listed;
  };
  using Counts = std::vector<std::pair<std::string, uint64_t>>;
  const Counts committed = {{"chess", 8}, {"go", 2}};
  ASSERT_EQ(counts(), committed);

  AppendGames(broker, 0, "chess", 8, 2);
  a.consumer.PollAll();
  a.sink.FailNextCommits(1);
  clock.Advance(config.commit_interval);
  a.consumer.Poll();
  ASSERT_EQ(broker.aborts, 1);
  const PartitionState* state = a.pipeline.registry().Find(0);
  ASSERT_NE(state, nullptr);
  ASSERT_TRUE(state->replaying());  // from the snapshot at 5 to the commit at 10
  ASSERT_EQ(state->next_offset, 5);
  EXPECT_EQ(counts(), committed);
  EXPECT_EQ(a.pipeline.views().Get()->pools.at("chess")->board(Model::kElo)->sequence(), 8u);

  a.consumer.Poll(2);  // replays chess 5 and 6
  clock.Advance(config.commit_interval);
  a.consumer.Poll(0);  // a commit while the partition replays
  ASSERT_TRUE(a.pipeline.registry().Find(0)->replaying());
  EXPECT_EQ(counts(), committed);

  a.consumer.Poll(3);  // the replay reaches the commit
  ASSERT_FALSE(a.pipeline.registry().Find(0)->replaying());
  EXPECT_EQ(counts(), committed);
  ProcessAndCommit(a, clock);  // the 2 aborted results, again
  EXPECT_EQ(counts(), (Counts{{"chess", 10}, {"go", 2}}));
}

// HTTP threads read the views while the consumer thread commits (run under TSan in CI): each
// reader sees only whole, committed views, and the results it sees never go backwards.
TEST(ViewsPipelineTest, ReadersOnOtherThreadsSeeOnlyCommittedViewsInOrder) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, TestConfig(TempSnapshotDir()), &clock);
  a.consumer.Assign({0});
  std::atomic<bool> done{false};
  std::vector<std::thread> readers;
  std::atomic<int> bad{0};
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      uint64_t last = 0;
      while (!done.load()) {
        const std::shared_ptr<const Views> views = a.pipeline.views().Get();
        const auto chess = views->pools.find("chess");
        if (chess == views->pools.end()) continue;
        const PoolView& view = *chess->second;
        const v1::Leaderboard* elo = view.board(Model::kElo);
        if (view.results < last || elo == nullptr || elo->sequence() != view.results ||
            view.results % 4 != 0) {
          ++bad;
        }
        last = view.results;
        if (LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kElo, 3), a.config).status !=
            200) {
          ++bad;
        }
      }
    });
  }
  for (int round = 0; round < 50; ++round) {
    AppendGames(broker, 0, "chess", 4 * round, 4);
    ProcessAndCommit(a, clock);  // 4 results per commit: committed counts are multiples of 4
  }
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(a.pipeline.views().Get()->pools.at("chess")->results, 200u);
}

}  // namespace
}  // namespace ratingd::testing
