// The views the HTTP API answers from (view_store.h, view_builder.h, view_answers.h): built
// from the pools, published only once their transaction commits, unchanged by an abort, and
// answered as the documents the pools themselves give (through the pipeline:
// views_pipeline_test.cc). Expected values come from the pools'
// own report path (LivePool::Report, from the kept order: another code path than the views'
// leaderboards), from the input's construction (AppendGames: n results of a pool are
// sequence n), and from hand-written JSON.
#include <memory>
#include <optional>
#include <string>
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
#include "tests/testing/results.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;
using ::testing::HasSubstr;

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

}  // namespace
}  // namespace ratingd::testing
