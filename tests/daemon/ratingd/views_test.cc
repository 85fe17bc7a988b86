// The views the HTTP API answers from (view_store.h, view_builder.h, view_answers.h): built
// from the pools, published only once their transaction commits, unchanged by an abort, and
// answered as the documents the pools themselves give. Expected values come from the pools'
// own report path (LivePool::Report, from the kept order: another code path than the views'
// leaderboards), from the input's construction (AppendGames: n results of a pool are
// sequence n), and from hand-written JSON.
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/view_answers.h"
#include "daemon/ratingd/view_builder.h"
#include "daemon/ratingd/view_store.h"
#include "daemon/suggest_report.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/time_util.h"
#include "gtest/gtest.h"
#include "ratings/model.h"
#include "tests/daemon/ratingd/held_pools.h"
#include "tests/fakes/pipeline_harness.h"
#include "tests/testing/results.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;
using ::testing::HasSubstr;

// The elo or sco leaderboard answer as the pool's own report gives it, with the sequence
// and the commit time of the view.
std::string ExpectedAnswer(const LivePool& live, Model model, size_t limit, absl::Time stamp) {
  v1::RatingReport report = live.Report(model, limit);
  report.set_sequence(static_cast<uint32_t>(live.sequence(model)));
  *report.mutable_committed_at() =
      google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(stamp));
  report.set_owner(true);
  return JsonReply(200, report).body;
}

TEST(ViewBuilderTest, PreparedViewsArePublishedOnlyOnCommitAndDroppedOnAbort) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");
  p.Play(chess, "a", "b");
  p.builder.MarkApplied("chess");
  const absl::Time t1 = absl::FromUnixSeconds(1000);
  p.builder.Prepare(p.registry, t1);
  EXPECT_TRUE(p.store.Get()->pools.empty());  // not committed yet
  p.builder.Commit();
  const std::shared_ptr<const Views> first = p.store.Get();
  ASSERT_TRUE(first->pools.contains("chess"));
  EXPECT_EQ(first->pools.at("chess")->results, 1u);
  EXPECT_EQ(first->pools.at("chess")->committed_at, t1);
  EXPECT_EQ(first->held, std::vector<int32_t>{0});

  p.Play(chess, "b", "a");
  p.builder.MarkApplied("chess");
  p.builder.Prepare(p.registry, t1 + absl::Seconds(1));
  p.builder.Abort();
  p.builder.Commit();  // nothing pending any more
  EXPECT_EQ(p.store.Get(), first);
}

TEST(ViewBuilderTest, UnchangedPoolsAndModelsShareTheirPreviousViews) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess", /*ml=*/true);
  LivePool& go = p.Hold(1, "go");
  p.Play(chess, "a", "b");
  p.Play(go, "x", "y");
  p.builder.Prepare(p.registry, absl::FromUnixSeconds(1));  // new pools: built
  p.builder.Commit();
  const std::shared_ptr<const Views> first = p.store.Get();
  EXPECT_EQ(first->pools.at("go")->board(Model::kMl), nullptr);  // ml is off for go
  p.Play(chess, "b", "a");
  p.builder.MarkApplied("chess");  // go not marked: unchanged
  p.builder.Prepare(p.registry, absl::FromUnixSeconds(2));
  p.builder.Commit();
  const std::shared_ptr<const Views> second = p.store.Get();
  EXPECT_EQ(second->pools.at("go"), first->pools.at("go"));  // the same view
  const PoolView& before = *first->pools.at("chess");
  const PoolView& after = *second->pools.at("chess");
  EXPECT_EQ(after.results, 2u);
  EXPECT_EQ(after.committed_at, absl::FromUnixSeconds(2));
  for (const Model model : {Model::kElo, Model::kSco}) {
    EXPECT_NE(after.board(model), before.board(model));
    EXPECT_EQ(after.board(model)->sequence(), 2u);
  }
  EXPECT_EQ(after.board(Model::kMl), before.board(Model::kMl));  // no solve: shared
  // A solve alone rebuilds the ml leaderboard only.
  p.builder.MarkSolved("chess");
  p.builder.Prepare(p.registry, absl::FromUnixSeconds(3));
  p.builder.Commit();
  const PoolView& solved = *p.store.Get()->pools.at("chess");
  EXPECT_NE(solved.board(Model::kMl), after.board(Model::kMl));
  EXPECT_EQ(solved.board(Model::kElo), after.board(Model::kElo));
  // Dropping partition 1 and publishing what is held removes go's view at once.
  p.registry.Drop(1);
  p.builder.PublishHeld(p.registry);
  EXPECT_FALSE(p.store.Get()->pools.contains("go"));
  EXPECT_EQ(p.store.Get()->held, std::vector<int32_t>{0});
}

TEST(ViewAnswersTest, LeaderboardsArePoolReportsWithTheirSequenceAndCommitTime) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");
  p.Play(chess, "A", "B");
  p.Play(chess, "A", "C");
  p.Play(chess, "B", "C");
  const absl::Time stamp = absl::FromUnixMillis(1'700'000'000'123);
  p.builder.Prepare(p.registry, stamp);
  p.builder.Commit();
  const DaemonConfig config = Config();
  const std::shared_ptr<const Views> views = p.store.Get();
  for (const Model model : {Model::kElo, Model::kSco}) {
    for (const size_t limit : {size_t{0}, size_t{2}, size_t{7}}) {
      const QueryReply reply =
          LeaderboardAnswer(*views, LeaderboardQuery("chess", model, limit), config);
      EXPECT_EQ(reply.status, 200);
      EXPECT_EQ(reply.body, ExpectedAnswer(chess, model, limit, stamp)) << limit;
    }
  }
  const std::string body =
      LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kElo, 1), config).body;
  EXPECT_THAT(body, HasSubstr(R"("sequence":3,"committed_at":"2023-11-14T22:13:20.123Z")"));
  // Through a cache: the same bytes, rendered once per limit, and the next commit's
  // leaderboard (a new object) rendered again.
  AnswerCache cache;
  for (int round = 0; round < 2; ++round) {
    for (const size_t limit : {size_t{0}, size_t{2}}) {
      EXPECT_EQ(
          LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kElo, limit), config, &cache)
              .body,
          ExpectedAnswer(chess, Model::kElo, limit, stamp));
    }
  }
  EXPECT_EQ(cache.renders(), 2u);
  p.Play(chess, "C", "A");
  p.Commit("chess", stamp + absl::Seconds(1));
  EXPECT_EQ(
      LeaderboardAnswer(*p.store.Get(), LeaderboardQuery("chess", Model::kElo, 2), config, &cache)
          .body,
      ExpectedAnswer(chess, Model::kElo, 2, stamp + absl::Seconds(1)));
  EXPECT_EQ(cache.renders(), 3u);
  const QueryReply off = LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kMl), config);
  EXPECT_EQ(off.status, 404);
  EXPECT_THAT(off.body, HasSubstr("model 'ml' is off"));
  const QueryReply unknown = LeaderboardAnswer(*views, LeaderboardQuery("go", Model::kElo), config);
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.body, HasSubstr("holds partitions [0] of ratingd.results"));
}

// uniform and ucb are answered from the view's counts exactly as from the pool itself
// (SuggestFromPool, the code path ratingctl suggest shares), and counted.
TEST(ViewAnswersTest, UniformAndUcbSuggestionsAreThoseOfThePool) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess");
  for (const auto& [w, l] : std::vector<std::pair<std::string, std::string>>{
           {"a", "b"}, {"a", "c"}, {"b", "c"}, {"d", "a"}, {"c", "d"}}) {
    p.Play(chess, w, l);
  }
  p.builder.Prepare(p.registry, absl::UnixEpoch());
  p.builder.Commit();
  Metrics metrics(100);
  const DaemonConfig config = Config();
  for (const auto strategy :
       {ratings::active::SuggestStrategy::kUniform, ratings::active::SuggestStrategy::kUcb}) {
    for (const uint64_t seed : {0u, 9u}) {
      Query q;
      q.kind = Query::Kind::kSuggest;
      q.pool = "chess";
      q.suggest = {.strategy = strategy, .n = 5, .seed = seed};
      const QueryReply reply = SuggestAnswer(*p.store.Get(), q, config, &metrics);
      EXPECT_EQ(reply.status, 200);
      google::protobuf::Struct expected = SuggestFromPool("chess", chess.pool(), q.suggest);
      (*expected.mutable_fields())["committed_at"].set_string_value("1970-01-01T00:00:00Z");
      EXPECT_EQ(reply.body, JsonReply(200, expected).body);
    }
  }
  EXPECT_EQ(metrics.Suggestions("uniform").Value(), 10);  // 2 answers of 5 pairs
  EXPECT_EQ(metrics.Suggestions("ucb").Value(), 10);
  Query unknown;
  unknown.kind = Query::Kind::kSuggest;
  unknown.pool = "go";
  EXPECT_EQ(SuggestAnswer(*p.store.Get(), unknown, config, &metrics).status, 404);
  // A solve alone keeps the counts; a result replaces them.
  const auto counts = p.store.Get()->pools.at("chess")->counts;
  p.builder.MarkSolved("chess");
  p.builder.Prepare(p.registry, absl::UnixEpoch());
  p.builder.Commit();
  EXPECT_EQ(p.store.Get()->pools.at("chess")->counts, counts);
  p.Play(chess, "e", "a");
  p.builder.MarkApplied("chess");
  p.builder.Prepare(p.registry, absl::UnixEpoch());
  p.builder.Commit();
  EXPECT_NE(p.store.Get()->pools.at("chess")->counts, counts);
  EXPECT_EQ(p.store.Get()->pools.at("chess")->counts->agents.size(), 5u);
}

TEST(ViewAnswersTest, UcbSuggestionsAreTheTopPairsByHand) {
  Pools p;
  LivePool& rps = p.Hold(0, "rps");
  for (const auto& [w, l] : std::vector<std::pair<std::string, std::string>>{
           {"A", "B"}, {"A", "B"}, {"B", "C"}, {"C", "A"}, {"A", "D"}, {"B", "D"}, {"C", "D"}}) {
    p.Play(rps, w, l);
  }
  p.builder.Prepare(p.registry, absl::FromUnixSeconds(60));
  p.builder.Commit();
  // Hand calculation: games (points) A 4 (3), B 4 (2), C 3 (2), D 3 (0); T_total 14.
  // UCB = mean + √2·sqrt(ln 14 / T_a): A 1.8987, B 1.6487, C 1.9931, D 1.3264. Pairs by
  // sum: C+A 3.89, C+B 3.64, A+B 3.55, C+D 3.32, ...
  Query q;
  q.kind = Query::Kind::kSuggest;
  q.pool = "rps";
  q.suggest = {.strategy = ratings::active::SuggestStrategy::kUcb, .n = 3};
  EXPECT_EQ(SuggestAnswer(*p.store.Get(), q, Config(), nullptr).body,
            R"({"committed_at":"1970-01-01T00:01:00Z","pool":"rps","sequence":7,)"
            R"("strategy":"ucb","suggestions":[)"
            R"({"agents":["C","A"],"probability":1},{"agents":["C","B"],"probability":1},)"
            R"({"agents":["A","B"],"probability":1}]})");
}

// The ml leaderboard and suggestions are those of the last scheduled solve: exactly what
// `ratingctl rate --method ml` and `ratingctl suggest --strategy ml` give for the results
// that solve saw (PoolReport solving a copy of the pool taken at the solve, another path
// than the live pool's solve and its leaderboard), with the solve count as `sequence`;
// results applied since change nothing of them.
TEST(ViewAnswersTest, MlAnswersAreThoseOfTheLastScheduledSolve) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess", MlEvery(4));
  std::optional<MlJob> job;
  for (const auto& [w, l] : std::vector<std::pair<std::string, std::string>>{
           {"A", "B"}, {"B", "C"}, {"C", "A"}, {"A", "D"}}) {
    if (std::optional<MlJob> due = p.Play(chess, w, l)) job = std::move(due);
  }
  ASSERT_TRUE(job.has_value());
  const ratings::Pool at_solve = *job->copy;  // before the solve touches it
  chess.AcceptMlSolution(LivePool::Solve(*std::move(job)));
  p.Play(chess, "E", "A");  // after the solve: a new agent; A's games grow
  p.builder.MarkApplied("chess");
  p.builder.MarkSolved("chess");
  const absl::Time stamp = absl::FromUnixSeconds(1'700'000'000);
  p.builder.Prepare(p.registry, stamp);
  p.builder.Commit();
  const DaemonConfig config = Config();
  const std::shared_ptr<const Views> views = p.store.Get();
  for (const size_t limit : {size_t{0}, size_t{2}}) {
    ratings::Pool copy = at_solve;
    absl::StatusOr<v1::RatingReport> expected = PoolReport(Model::kMl, copy, limit, 0);
    ASSERT_TRUE(expected.ok());
    AddUncertainty(Model::kMl, at_solve, nullptr, {}, *expected->mutable_ranking());
    expected->set_sequence(1);
    expected->set_owner(true);
    *expected->mutable_committed_at() =
        google::protobuf::util::TimeUtil::SecondsToTimestamp(absl::ToUnixSeconds(stamp));
    const QueryReply reply =
        LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kMl, limit), config);
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, JsonReply(200, *expected).body) << limit;
  }
  const std::string body =
      LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kMl, 2), config).body;
  EXPECT_THAT(body, HasSubstr(R"("agents":4,"results":4,)"));
  EXPECT_THAT(body, ::testing::Not(HasSubstr(R"("E")")));

  Query q;
  q.kind = Query::Kind::kSuggest;
  q.pool = "chess";
  q.suggest = {
      .strategy = ratings::active::SuggestStrategy::kMl, .n = 6, .exploration = 0.2, .seed = 3};
  ratings::Pool copy = at_solve;
  absl::StatusOr<google::protobuf::Struct> expected =
      SuggestFromMlReport("chess", 4, *PoolReport(Model::kMl, copy, 0, 0), q.suggest);
  ASSERT_TRUE(expected.ok());
  (*expected->mutable_fields())["sequence"].set_number_value(1);
  (*expected->mutable_fields())["committed_at"].set_string_value("2023-11-14T22:13:20Z");
  Metrics metrics(100);
  const QueryReply reply = SuggestAnswer(*views, q, config, &metrics);
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, JsonReply(200, *expected).body);
  EXPECT_EQ(metrics.Suggestions("ml").Value(), 6);
}

TEST(ViewAnswersTest, MlBeforeTheFirstSolveIsEmptyAndRefusedMlIs409) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess", MlEvery(100));
  LivePool& go = p.Hold(1, "go", MlEvery(1, /*max_agents=*/2));
  p.Play(chess, "A", "B");
  p.Play(go, "x", "y");
  p.Play(go, "y", "z");  // a third agent: ml refused for go
  ASSERT_TRUE(go.pool().ml()->refused());
  p.builder.Prepare(p.registry, absl::UnixEpoch());
  p.builder.Commit();
  const DaemonConfig config = Config();
  const std::shared_ptr<const Views> views = p.store.Get();
  const QueryReply empty = LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kMl), config);
  EXPECT_EQ(empty.status, 200);
  EXPECT_THAT(empty.body, HasSubstr(R"("agents":0,"results":0,"ranking":[])"));
  EXPECT_THAT(empty.body, HasSubstr(R"("sequence":0)"));
  Query suggest;
  suggest.kind = Query::Kind::kSuggest;
  suggest.pool = "chess";
  suggest.suggest.strategy = ratings::active::SuggestStrategy::kMl;
  EXPECT_EQ(SuggestAnswer(*views, suggest, config, nullptr).body,
            R"({"committed_at":"1970-01-01T00:00:00Z","pool":"chess","sequence":0,)"
            R"("strategy":"ml","suggestions":[]})");
  // The pool list says which models are answered: ml is not, for go.
  EXPECT_THAT(
      PoolsAnswer(*views).body,
      HasSubstr(R"("models":["elo","sco","ml"],"owner":true,"partition":0,"pool":"chess")"));
  EXPECT_THAT(PoolsAnswer(*views).body,
              HasSubstr(R"("models":["elo","sco"],"owner":true,"partition":1,"pool":"go")"));
  const QueryReply refused = LeaderboardAnswer(*views, LeaderboardQuery("go", Model::kMl), config);
  EXPECT_EQ(refused.status, 409);
  EXPECT_THAT(refused.body, HasSubstr("ml is off for pool 'go': 3 agents exceed max_agents=2"));
  suggest.pool = "go";
  EXPECT_EQ(SuggestAnswer(*views, suggest, config, nullptr).status, 409);
}

TEST(ViewAnswersTest, PoolsAnswerListsEveryViewByPartitionThenName) {
  Pools p;
  p.Play(p.Hold(1, "go"), "x", "y");
  LivePool& shogi = p.Hold(0, "shogi");
  p.Play(shogi, "a", "b");
  p.Play(shogi, "a", "c");
  p.Hold(0, "chess");  // no result yet
  p.builder.Prepare(p.registry, absl::UnixEpoch());
  p.builder.Commit();
  EXPECT_EQ(PoolsAnswer(*p.store.Get()).body,
            R"({"pools":[{"agents":0,"models":["elo","sco"],"owner":true,"partition":0,)"
            R"("pool":"chess","results":0},)"
            R"({"agents":3,"models":["elo","sco"],"owner":true,"partition":0,"pool":"shogi",)"
            R"("results":2},)"
            R"({"agents":2,"models":["elo","sco"],"owner":true,"partition":1,"pool":"go",)"
            R"("results":1}]})");
}

// A leaderboard as another instance publishes it to the leaderboards topic.
std::shared_ptr<const v1::Leaderboard> RemoteBoard(const std::string& pool, Model model,
                                                   int32_t partition, uint64_t results) {
  auto board = std::make_shared<v1::Leaderboard>();
  board->set_pool(pool);
  board->set_model(std::string(ratings::ModelName(model)));
  board->set_partition(partition);
  board->set_sequence(results);
  board->set_agents(2);
  board->set_results(results);
  for (const auto& [rank, agent] : std::vector<std::pair<int, std::string>>{{1, "x"}, {2, "y"}}) {
    v1::RankedAgent* r = board->add_ranking();
    r->set_rank(rank);
    r->set_agent(agent);
    r->set_rating(1500 - rank);
  }
  *board->mutable_committed_at() = google::protobuf::util::TimeUtil::SecondsToTimestamp(60);
  return board;
}

// Pools another instance owns are listed and answered from the leaderboards topic with
// owner false; this instance's own state wins for the pools it holds; suggestions stay with
// the owner.
TEST(ViewAnswersTest, OtherInstancesPoolsAreAnsweredFromTheLeaderboardsTopic) {
  Pools p;
  LivePool& chess = p.Hold(1, "chess");
  p.Play(chess, "a", "b");
  p.builder.Prepare(p.registry, absl::UnixEpoch());
  p.builder.Commit();
  auto remote = std::make_shared<RemoteBoards>();
  remote->pools["go"][0] = RemoteBoard("go", Model::kElo, 2, 7);
  remote->pools["go"][2] = RemoteBoard("go", Model::kMl, 2, 5);
  remote->pools["chess"][0] = RemoteBoard("chess", Model::kElo, 1, 99);  // stale: ours wins
  remote->pools["arena"][1] = RemoteBoard("arena", Model::kSco, 0, 3);
  p.store.PublishRemote(remote);
  const std::shared_ptr<const Views> views = p.store.Get();
  EXPECT_EQ(PoolsAnswer(*views).body,
            R"({"pools":[{"agents":2,"models":["sco"],"owner":false,"partition":0,)"
            R"("pool":"arena","results":3},)"
            R"({"agents":2,"models":["elo","sco"],"owner":true,"partition":1,"pool":"chess",)"
            R"("results":1},)"
            R"({"agents":2,"models":["elo","ml"],"owner":false,"partition":2,"pool":"go",)"
            R"("results":7}]})");
  const DaemonConfig config = Config();
  v1::RatingReport expected = ReportFromBoard(*remote->pools["go"][0], 1);
  expected.set_owner(false);
  EXPECT_EQ(LeaderboardAnswer(*views, LeaderboardQuery("go", Model::kElo, 1), config).body,
            JsonReply(200, expected).body);
  EXPECT_THAT(LeaderboardAnswer(*views, LeaderboardQuery("go", Model::kElo, 1), config).body,
              HasSubstr(R"("sequence":7,"committed_at":"1970-01-01T00:01:00Z","owner":false})"));
  EXPECT_EQ(LeaderboardAnswer(*views, LeaderboardQuery("chess", Model::kElo), config).body,
            ExpectedAnswer(chess, Model::kElo, 0, absl::UnixEpoch()));
  const QueryReply none = LeaderboardAnswer(*views, LeaderboardQuery("go", Model::kSco), config);
  EXPECT_EQ(none.status, 404);
  EXPECT_THAT(none.body, HasSubstr("has no leaderboard of its model 'sco'"));
  Query suggest;
  suggest.kind = Query::Kind::kSuggest;
  suggest.pool = "go";
  const QueryReply elsewhere = SuggestAnswer(*views, suggest, config, nullptr);
  EXPECT_EQ(elsewhere.status, 404);
  EXPECT_THAT(elsewhere.body,
              HasSubstr("'go' is owned by another instance (partition 2 of ratingd.results)"));
  // A commit of this instance keeps the remote boards; new remote boards keep its views.
  p.Play(chess, "b", "a");
  p.Commit("chess", absl::FromUnixSeconds(5));
  EXPECT_EQ(p.store.Get()->remote, views->remote);
  p.store.PublishRemote(std::make_shared<const RemoteBoards>());
  EXPECT_EQ(p.store.Get()->pools.at("chess")->results, 2u);
  EXPECT_EQ(LeaderboardAnswer(*p.store.Get(), LeaderboardQuery("go", Model::kElo), config).status,
            404);
}

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
