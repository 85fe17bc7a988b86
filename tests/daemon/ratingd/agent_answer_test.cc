// GET /v1/pools/{pool}/agents/{agent} (agent_answer.h) and the history views it reads
// (view_builder.h): an agent's entry and history as committed, shared between views while
// the agent does not play, and the errors. Expected values by hand (Elo, K = 32: a beats b
// from 1500 each, 1516 / 1484; then b beats a: E(b, a) = 1/(1 + 10^(32/400)) = 0.454078,
// b gains 17.469502) and from the pool's own history.
#include "daemon/ratingd/agent_answer.h"

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "daemon/ratingd/http_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/daemon/ratingd/held_pools.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;
using ::testing::HasSubstr;
using ::testing::Not;

LivePoolConfig WithHistory() {
  LivePoolConfig config = Models(/*ml=*/true);
  config.history_points = 8;
  config.bootstrap_replicas = 0;  // no interval: the points' ci fields are left out
  return config;
}

Query AgentQuery(const std::string& pool, const std::string& agent, Model model) {
  absl::StatusOr<Query> q = ParseAgentRequest("/v1/pools/" + pool + "/agents/" + agent,
                                              std::string(ratings::ModelName(model)));
  EXPECT_TRUE(q.ok()) << q.status();
  return *q;
}

TEST(AgentAnswerTest, EntryAndHistoryAsCommitted) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess", WithHistory());
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1'700'000'000));
  p.Play(chess, "b", "a");
  p.Commit("chess", absl::FromUnixSeconds(1'700'000'001));
  const QueryReply reply =
      AgentAnswer(*p.store.Get(), AgentQuery("chess", "b", Model::kElo), Config());
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_THAT(reply.body, HasSubstr(R"("agent":{"agent":"b","games":2,"provisional":true,)"
                                    R"("rank":1,"rating":1501.4695015289)"));
  EXPECT_THAT(reply.body, HasSubstr(R"("history":[{"rating":1484,"sequence":1},)"
                                    R"({"rating":1501.4695015289)"));
  EXPECT_THAT(reply.body, HasSubstr(R"("committed_at":"2023-11-14T22:13:21Z")"));
  EXPECT_THAT(reply.body, HasSubstr(R"("model":"elo","owner":true,"pool":"chess","sequence":2})"));

  // ml keeps no history: the entry alone (before its first solve, no entry at all).
  const QueryReply ml = AgentAnswer(*p.store.Get(), AgentQuery("chess", "b", Model::kMl), Config());
  EXPECT_EQ(ml.status, 404);
  EXPECT_THAT(ml.body, HasSubstr("agent 'b' is not in the ml leaderboard of pool 'chess'"));
}

// A view shares the live histories' points instead of copying them, and keeps seeing the
// points it was published with while the histories grow past them and thin (8 points here).
TEST(AgentAnswerTest, AViewSharesThePointsAndKeepsThemWhileTheHistoryGoesOn) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess", WithHistory());
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1));
  const auto first = p.store.Get()->pools.at("chess")->histories[0];
  ASSERT_NE(first, nullptr);
  const std::vector<ratings::HistoryPoint> a_then((*first)[0].points().begin(),
                                                  (*first)[0].points().end());
  ASSERT_EQ(a_then.size(), 1u);
  p.Play(chess, "c", "a");  // b does not play
  p.Commit("chess", absl::FromUnixSeconds(2));
  const auto second = p.store.Get()->pools.at("chess")->histories[0];
  ASSERT_EQ(second->size(), 3u);
  EXPECT_EQ((*second)[1].buffer, (*first)[1].buffer);  // b: the same points, not copied
  EXPECT_EQ((*second)[0].size, 2u);
  for (int i = 0; i < 40; ++i) p.Play(chess, "a", i % 2 == 0 ? "b" : "c");  // grows, thins
  p.Commit("chess", absl::FromUnixSeconds(3));
  const auto third = p.store.Get()->pools.at("chess")->histories[0];
  // 42 points into 8: thinned to 6 at each 9th point, then 7, 8 (by hand: 42 is even: 8).
  EXPECT_EQ((*third)[0].size, 8u);
  EXPECT_NE((*third)[0].buffer, (*second)[0].buffer);
  // The earlier views are as they were published.
  ASSERT_EQ((*first)[0].size, 1u);
  EXPECT_EQ((*first)[0].points()[0].sequence, a_then[0].sequence);
  EXPECT_EQ((*first)[0].points()[0].rating, a_then[0].rating);
  EXPECT_EQ((*second)[0].points()[0].sequence, 1u);
  EXPECT_EQ((*second)[0].points()[1].sequence, 2u);
}

// --history-max-agents: at the result that brings the pool's third agent, past a bound of
// 2, the histories are dropped; the answers give the entry alone from then on, and neither
// the pool's snapshot nor a pool restored from it, or from a snapshot taken under the bound
// with histories, keeps any.
TEST(AgentAnswerTest, APoolPastTheAgentBoundKeepsNoHistory) {
  LivePoolConfig config = WithHistory();
  config.history_max_agents = 2;
  Pools p;
  LivePool& chess = p.Hold(0, "chess", config);
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1));
  EXPECT_NE(chess.history(Model::kElo), nullptr);
  const v1::PoolSnapshot under = chess.ToSnapshot();
  EXPECT_EQ(under.histories_size(), 2);  // elo, sco
  EXPECT_THAT(AgentAnswer(*p.store.Get(), AgentQuery("chess", "a", Model::kElo), Config()).body,
              HasSubstr(R"("history":[)"));

  p.Play(chess, "a", "c");
  p.Commit("chess", absl::FromUnixSeconds(2));
  EXPECT_EQ(chess.history(Model::kElo), nullptr);
  EXPECT_EQ(chess.history(Model::kSco), nullptr);
  const QueryReply reply =
      AgentAnswer(*p.store.Get(), AgentQuery("chess", "a", Model::kElo), Config());
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_THAT(reply.body, Not(HasSubstr("history")));
  const v1::PoolSnapshot over = chess.ToSnapshot();
  EXPECT_EQ(over.histories_size(), 0);

  absl::StatusOr<std::unique_ptr<LivePool>> restored = LivePool::FromSnapshot(over, config);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ((*restored)->history(Model::kElo), nullptr);
  // The snapshot of two agents with histories, restored under a bound of 1: none kept.
  config.history_max_agents = 1;
  restored = LivePool::FromSnapshot(under, config);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ((*restored)->history(Model::kElo), nullptr);
  config.history_max_agents = 2;  // and under the bound it was taken with: kept
  restored = LivePool::FromSnapshot(under, config);
  ASSERT_TRUE(restored.ok()) << restored.status();
  ASSERT_NE((*restored)->history(Model::kElo), nullptr);
  EXPECT_EQ((*restored)->history(Model::kElo)->Of(0).size(), 1u);
}

TEST(AgentAnswerTest, UnknownPoolModelOffAndUnknownAgent) {
  Pools p;
  LivePool& chess = p.Hold(0, "chess", WithHistory());
  p.Play(chess, "a", "b");
  p.Commit("chess", absl::FromUnixSeconds(1));
  EXPECT_EQ(AgentAnswer(*p.store.Get(), AgentQuery("go", "a", Model::kElo), Config()).status, 404);
  const QueryReply off =
      AgentAnswer(*p.store.Get(), AgentQuery("chess", "a", Model::kGlicko2), Config());
  EXPECT_EQ(off.status, 404);
  EXPECT_THAT(off.body, HasSubstr("model 'glicko2' has no leaderboard"));
  const QueryReply nobody =
      AgentAnswer(*p.store.Get(), AgentQuery("chess", "z", Model::kElo), Config());
  EXPECT_EQ(nobody.status, 404);
  EXPECT_THAT(nobody.body, HasSubstr("agent 'z' is not in the elo leaderboard of pool 'chess'"));
}

TEST(AgentAnswerTest, ParseAgentRequest) {
  absl::StatusOr<Query> q = ParseAgentRequest("/v1/pools/chess/agents/gpt-4o", "sco");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->kind, Query::Kind::kAgent);
  EXPECT_EQ(q->pool, "chess");
  EXPECT_EQ(q->agent, "gpt-4o");
  EXPECT_EQ(q->model, Model::kSco);
  EXPECT_TRUE(absl::IsNotFound(ParseAgentRequest("/v1/pools/chess/agents/", "elo").status()));
  EXPECT_TRUE(absl::IsNotFound(ParseAgentRequest("/v1/pools//agents/a", "elo").status()));
  EXPECT_THAT(std::string(ParseAgentRequest("/v1/pools/chess/agents/a", "").status().message()),
              HasSubstr("model must be elo, sco, ml or glicko2"));
}

}  // namespace
}  // namespace ratingd::testing
