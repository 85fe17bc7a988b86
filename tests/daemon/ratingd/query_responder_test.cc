// QueryResponder through a QueryQueue: asking threads play the HTTP threads, the test thread
// the consumer thread (it calls Serve). Expected values come from a hand calculation (JSON
// documents, Elo ranks), the input's construction (which pools and partitions are held, how
// many results each has), or an independent computation: PoolReport on a copy of the pool
// (daemon/pool_report.h, what `ratingctl rate` prints), printed with DeterministicJson.
#include "daemon/ratingd/query_responder.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/pool_report.h"
#include "daemon/suggest_report.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "ratings/model.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/fakes/fake_clock.h"
#include "tests/testing/results.h"

namespace ratingd::testing {
namespace {

using ::ratings::Model;
using ::ratings::testing::Order;
using ::testing::HasSubstr;

constexpr absl::Duration kPatience = absl::Seconds(60);  // an ml solve of 4 agents: ms

// A FakeClock that also counts its reads off the thread that made it (the test thread, the
// consumer): QueryResponder reads the clock off the consumer thread once per ml solve, to
// date the answer it keeps, so this counts the solves.
class SolveCountingClock final : public Clock {
 public:
  absl::Time Now() const override {
    if (std::this_thread::get_id() != owner_) solves_.fetch_add(1);
    return fake_.Now();
  }
  void Advance(absl::Duration d) { fake_.Advance(d); }
  int solves() const { return solves_.load(); }

 private:
  FakeClock fake_;
  const std::thread::id owner_ = std::this_thread::get_id();
  mutable std::atomic<int> solves_{0};
};

Query Leaderboard(const std::string& pool, Model model, size_t limit = 0) {
  Query q;
  q.kind = Query::Kind::kLeaderboard;
  q.pool = pool;
  q.model = model;
  q.limit = limit;
  return q;
}

struct Responder {
  explicit Responder(QueryResponder::SolveRunner run_solve = nullptr, Metrics* metrics = nullptr)
      : responder{config, &registry, &clock, std::move(run_solve), metrics} {}
  ~Responder() {
    for (std::thread& t : asking) t.join();
  }

  // Holds partition `partition` (once) and a new pool in it with elo, sco and ml on.
  LivePool& Hold(int32_t partition, const std::string& name, LivePoolConfig pool = {}) {
    PartitionState* state = registry.Find(partition);
    if (state == nullptr) {
      PartitionState fresh;
      fresh.topic = config.results_topic;
      fresh.partition = partition;
      state = &registry.Insert(std::move(fresh));
    }
    absl::StatusOr<LivePool*> live = registry.GetOrCreatePool(*state, name, pool);
    EXPECT_TRUE(live.ok()) << live.status();
    return **live;
  }
  // Applies each order as a result (game ids "<pool>-<results before>").
  static void Play(LivePool& pool, const std::vector<std::vector<std::string>>& orders) {
    for (const auto& order : orders) {
      const std::string game = absl::StrCat(pool.name(), "-", pool.pool().results());
      ASSERT_TRUE(Apply(pool, Order(order), game).ok()) << game;
    }
  }
  // Ask: asks from a thread of its own, Serves once the query is queued, and waits for the
  // reply (an ml solve replies from the solver thread). AskAndServe does not wait: the
  // reply is ready once the asker has it (with held solves, not before the solve is run).
  QueryReply Ask(Query query) { return AskAndServe(std::move(query)).get(); }
  std::future<QueryReply> AskAndServe(Query query) {
    std::packaged_task<QueryReply()> ask(
        [this, query = std::move(query)] { return queue.Ask(query, kPatience); });
    std::future<QueryReply> reply = ask.get_future();
    asking.emplace_back(std::move(ask));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!queue.pending() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    EXPECT_TRUE(queue.pending()) << "the query was not queued";
    responder.Serve(queue);
    return reply;
  }
  // Asks every query from a thread of its own and Serves until all are answered (in one
  // Serve call or more: the queue does not tell how many queries it holds).
  std::vector<QueryReply> AskConcurrently(const std::vector<Query>& queries) {
    std::vector<QueryReply> replies(queries.size());
    std::atomic<size_t> answered{0};
    std::vector<std::thread> askers;
    for (size_t i = 0; i < queries.size(); ++i) {
      askers.emplace_back([&, i] {
        replies[i] = queue.Ask(queries[i], kPatience);
        answered.fetch_add(1);
      });
    }
    while (answered.load() < queries.size()) {
      if (queue.pending()) responder.Serve(queue);
      std::this_thread::yield();
    }
    for (std::thread& t : askers) t.join();
    return replies;
  }

  DaemonConfig config;
  SolveCountingClock clock;
  PartitionRegistry registry;
  QueryQueue queue;
  std::vector<std::thread> asking;  // AskAndServe's askers, joined by ~Responder
  QueryResponder responder;         // last: its solver joins first
};

// A SolveRunner that holds the ml solves until the test runs them, on the test thread (so
// SolveCountingClock does not count them).
struct HeldSolves {
  QueryResponder::SolveRunner Runner() {
    return [this](std::function<void()> solve) { solves.push_back(std::move(solve)); };
  }
  void RunAll() {
    for (std::function<void()>& solve : std::exchange(solves, {})) solve();
  }
  std::vector<std::function<void()>> solves;
};

// The independent computation: `ratingctl rate`'s document of a copy of the pool.
// What `ratingctl rate` prints for the pool, plus the fields ratingd adds to each entry:
// games and provisional from the pool's result counts, the intervals from its leaderboard
// (live_pool_intervals_test.cc checks both).
std::string RateDocument(const LivePool& live, Model model, size_t limit) {
  ratings::Pool copy = live.pool();
  absl::StatusOr<v1::RatingReport> report = PoolReport(model, copy, limit, 0);
  EXPECT_TRUE(report.ok()) << report.status();
  const v1::Leaderboard board = live.Leaderboard(model);
  for (v1::RankedAgent& r : *report->mutable_ranking()) {
    const uint64_t games = copy.games().results()[*copy.index().Find(r.agent())];
    r.set_games(static_cast<uint32_t>(games));
    r.set_provisional(games < 20);
    for (const v1::RankedAgent& b : board.ranking()) {
      if (b.agent() != r.agent() || !b.has_ci_low()) continue;
      r.set_ci_low(b.ci_low());
      r.set_ci_high(b.ci_high());
      r.set_rank_low(b.rank_low());
      r.set_rank_high(b.rank_high());
    }
  }
  absl::StatusOr<std::string> json = DeterministicJson(*report);
  EXPECT_TRUE(json.ok()) << json.status();
  return *json;
}

v1::RatingReport Parse(const std::string& json) {
  v1::RatingReport report;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &report).ok()) << json;
  return report;
}

// Construction: a cycle with margins A > B 2, B > C 1, C > A 1, and D below everyone. Hand
// calculation (docs/MODELS.md §4): the maximal lottery of a 3-cycle with margins a = M(A,B),
// b = M(B,C), c = M(C,A) is (b, c, a) / (a + b + c): C 1/2, A 1/4, B 1/4, D 0.
const std::vector<std::vector<std::string>> kCycle = {
    {"A", "B"}, {"A", "B"}, {"B", "C"}, {"C", "A"}, {"A", "D"}, {"B", "D"}, {"C", "D"}};

TEST(QueryResponderTest, PoolsListNamesEveryHeldPoolWithItsAgentsAndResults) {
  Responder r;
  Responder::Play(r.Hold(3, "shogi"), {{"A", "B", "C", "D"}, {"D", "C"}});
  Responder::Play(r.Hold(0, "go"), {{"A", "B"}});
  Responder::Play(r.Hold(0, "chess"), {{"A", "B"}, {"B", "C"}, {"A", "C"}});
  Query pools;
  pools.kind = Query::Kind::kPools;
  const QueryReply reply = r.Ask(pools);
  EXPECT_EQ(reply.status, 200);
  // Hand-written: partition order, then pool name order; construction's counts.
  EXPECT_EQ(reply.body, R"({"pools":[{"agents":3,"partition":0,"pool":"chess","results":3},)"
                        R"({"agents":2,"partition":0,"pool":"go","results":1},)"
                        R"({"agents":4,"partition":3,"pool":"shogi","results":2}]})");
}

TEST(QueryResponderTest, PoolNotHeldIs404NamingTheHeldPartitions) {
  Responder r;
  r.Hold(3, "shogi");
  r.Hold(0, "chess");
  const QueryReply reply = r.Ask(Leaderboard("go", Model::kElo));
  EXPECT_EQ(reply.status, 404);
  EXPECT_THAT(reply.body, HasSubstr("pool 'go' is not held"));
  EXPECT_THAT(reply.body, HasSubstr("partitions [0,3] of ratingd.results"));
  EXPECT_THAT(reply.body, HasSubstr("group 'ratingd'"));
}

TEST(QueryResponderTest, ModelOffIs404AndRefusedMlIs409) {
  Responder r;
  LivePoolConfig no_sco;
  no_sco.options.sco = false;
  Responder::Play(r.Hold(0, "chess", no_sco), {{"A", "B"}});
  LivePoolConfig small_ml;
  small_ml.options.ml_options.max_agents = 2;
  Responder::Play(r.Hold(0, "go", small_ml), {{"A", "B", "C"}});  // 3 agents > 2: refused
  QueryReply reply = r.Ask(Leaderboard("chess", Model::kSco));
  EXPECT_EQ(reply.status, 404);
  EXPECT_EQ(reply.body, R"({"error":"model 'sco' is off"})");
  reply = r.Ask(Leaderboard("go", Model::kMl));
  EXPECT_EQ(reply.status, 409);
  EXPECT_THAT(reply.body, HasSubstr("3 agents exceed max_agents=2"));
  EXPECT_EQ(r.clock.solves(), 0);
}

TEST(QueryResponderTest, EloLeaderboardIsTheRateDocumentOfThePool) {
  Responder r;
  LivePool& chess = r.Hold(0, "chess");
  // Hand calculation (K = 32): A beats B (1516, 1484), A beats C (A 1531.3, C 1484.7), B beats
  // C (B 1500.0, C 1468.7): A, B, C.
  Responder::Play(chess, {{"A", "B"}, {"A", "C"}, {"B", "C"}});
  const QueryReply all = r.Ask(Leaderboard("chess", Model::kElo));
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.body, RateDocument(chess, Model::kElo, 0));
  const v1::RatingReport report = Parse(all.body);
  ASSERT_EQ(report.ranking_size(), 3);
  EXPECT_EQ(report.ranking(0).agent(), "A");
  EXPECT_EQ(report.ranking(1).agent(), "B");
  EXPECT_EQ(report.ranking(2).agent(), "C");
  for (const v1::RankedAgent& a : report.ranking()) {
    EXPECT_EQ(a.games(), 2u);  // each in two of the three results
    EXPECT_TRUE(a.provisional());
    EXPECT_TRUE(a.has_ci_low() && a.ci_low() < a.rating() && a.rating() < a.ci_high());
  }
  const QueryReply two = r.Ask(Leaderboard("chess", Model::kElo, 2));
  ASSERT_EQ(two.status, 200);
  EXPECT_EQ(two.body, RateDocument(chess, Model::kElo, 2));
  EXPECT_EQ(Parse(two.body).ranking_size(), 2);
  EXPECT_EQ(r.Ask(Leaderboard("chess", Model::kSco)).body, RateDocument(chess, Model::kSco, 0));
  EXPECT_EQ(r.clock.solves(), 0);  // elo and sco are read from the kept orders
}

TEST(QueryResponderTest, MlLeaderboardIsTheRateDocumentOfACopy) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const QueryReply reply = r.Ask(Leaderboard("rps", Model::kMl));
  ASSERT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, RateDocument(rps, Model::kMl, 0));
  const v1::RatingReport report = Parse(reply.body);
  ASSERT_EQ(report.ranking_size(), 4);
  EXPECT_EQ(report.ranking(0).agent(), "C");  // hand calculation: the largest probability
  EXPECT_EQ(report.ranking(3).agent(), "D");
  const auto& lottery = report.extra().fields().at("lottery").struct_value().fields();
  EXPECT_NEAR(lottery.at("C").number_value(), 0.5, 1e-2);
  EXPECT_NEAR(lottery.at("A").number_value(), 0.25, 1e-2);
  EXPECT_NEAR(lottery.at("D").number_value(), 0.0, 1e-2);
  EXPECT_EQ(r.clock.solves(), 1);
  for (const v1::RankedAgent& a : report.ranking()) {
    // Counted in kCycle by hand: A and B are in 4 results, C and D in 3.
    EXPECT_EQ(a.games(), a.agent() == "A" || a.agent() == "B" ? 4u : 3u) << a.agent();
    EXPECT_TRUE(a.provisional());
    EXPECT_FALSE(a.has_ci_low());  // ml has no replicas
  }
}

TEST(QueryResponderTest, MlLimitCutsTheRanking) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const QueryReply reply = r.Ask(Leaderboard("rps", Model::kMl, 2));
  ASSERT_EQ(reply.status, 200);
  const v1::RatingReport expected = Parse(RateDocument(rps, Model::kMl, 2));
  const v1::RatingReport got = Parse(reply.body);
  ASSERT_EQ(got.ranking_size(), 2);
  ASSERT_EQ(expected.ranking_size(), 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(got.ranking(i).agent(), expected.ranking(i).agent());
    EXPECT_EQ(got.ranking(i).rating(), expected.ranking(i).rating());
  }
}

// pool_report.h: the ml `lottery` lists the listed agents (what `ratingctl rate` prints for
// that limit), so the limited answer is the whole rate document of that limit.
TEST(QueryResponderTest, MlLimitedAnswerIsTheRateDocumentOfThatLimit) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const QueryReply reply = r.Ask(Leaderboard("rps", Model::kMl, 2));
  ASSERT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, RateDocument(rps, Model::kMl, 2));
  EXPECT_EQ(Parse(reply.body).extra().fields().at("lottery").struct_value().fields_size(), 2);
}

TEST(QueryResponderTest, MlAnswerIsKeptWhileThePoolIsUnchangedOrForMaxAge) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const std::string seven = RateDocument(rps, Model::kMl, 0);  // construction: 7 results
  EXPECT_EQ(r.Ask(Leaderboard("rps", Model::kMl)).body, seven);
  EXPECT_EQ(r.clock.solves(), 1);
  Responder::Play(rps, {{"D", "A"}});  // 8 results
  r.clock.Advance(QueryResponder::kMlAnswerMaxAge - absl::Milliseconds(1));
  QueryReply reply = r.Ask(Leaderboard("rps", Model::kMl));
  EXPECT_EQ(reply.body, seven);  // the kept answer: still 7 results
  EXPECT_EQ(Parse(reply.body).results(), 7u);
  EXPECT_EQ(r.clock.solves(), 1);
  r.clock.Advance(absl::Milliseconds(2));  // beyond kMlAnswerMaxAge
  reply = r.Ask(Leaderboard("rps", Model::kMl));
  EXPECT_EQ(reply.body, RateDocument(rps, Model::kMl, 0));
  EXPECT_EQ(Parse(reply.body).results(), 8u);
  EXPECT_EQ(r.clock.solves(), 2);
  r.clock.Advance(absl::Seconds(10));  // old, but the pool is unchanged
  EXPECT_EQ(r.Ask(Leaderboard("rps", Model::kMl)).body, reply.body);
  EXPECT_EQ(r.clock.solves(), 2);
}

TEST(QueryResponderTest, QueriesForOnePoolShareOneSolve) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const std::vector<QueryReply> replies =
      r.AskConcurrently({Leaderboard("rps", Model::kMl, 3), Leaderboard("rps", Model::kMl, 3)});
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].status, 200);
  EXPECT_EQ(replies[1].status, 200);
  EXPECT_EQ(replies[0].body, replies[1].body);
  EXPECT_EQ(Parse(replies[0].body).ranking_size(), 3);
  EXPECT_EQ(r.clock.solves(), 1);  // waiting for the solve, or its kept answer
}

bool Answered(const std::future<QueryReply>& reply) {
  return reply.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// A held ml query's reply once its solve has run: the rate document of the pool.
void ExpectMlDocument(std::future<QueryReply>& reply, const LivePool& pool) {
  const QueryReply got = reply.get();
  EXPECT_EQ(got.status, 200) << pool.name();
  EXPECT_EQ(got.body, RateDocument(pool, Model::kMl, 0)) << pool.name();
}

// Solves are held until the test runs them: until then their pools are being solved. (Every
// check before RunAll is an EXPECT, so that the askers get their replies.)
TEST(QueryResponderTest, BeyondTwoPoolsBeingSolvedAThirdPoolGets429) {
  HeldSolves held;
  Responder r(held.Runner());
  LivePool& a = r.Hold(0, "a");
  LivePool& b = r.Hold(0, "b");
  LivePool& c = r.Hold(0, "c");
  for (LivePool* pool : {&a, &b, &c}) Responder::Play(*pool, kCycle);
  std::future<QueryReply> to_a = r.AskAndServe(Leaderboard("a", Model::kMl));
  std::future<QueryReply> to_b = r.AskAndServe(Leaderboard("b", Model::kMl));
  // Answered by its Serve, while a's and b's solves are held.
  const QueryReply refused = r.AskAndServe(Leaderboard("c", Model::kMl)).get();
  EXPECT_EQ(refused.status, 429);
  EXPECT_THAT(refused.body, HasSubstr("2 pools' ml solves for HTTP queries are running already; "
                                      "ask again later"));
  EXPECT_EQ(held.solves.size(), 2u);
  EXPECT_FALSE(Answered(to_a));
  EXPECT_FALSE(Answered(to_b));
  held.RunAll();
  ExpectMlDocument(to_a, a);
  ExpectMlDocument(to_b, b);
  // No pool is being solved now: a query for c is accepted.
  std::future<QueryReply> to_c = r.AskAndServe(Leaderboard("c", Model::kMl));
  EXPECT_EQ(held.solves.size(), 1u);
  EXPECT_FALSE(Answered(to_c));
  held.RunAll();
  ExpectMlDocument(to_c, c);
  EXPECT_EQ(r.clock.solves(), 0);  // every solve ran on the test thread
}

TEST(QueryResponderTest, QueryForAPoolBeingSolvedWaitsForThatSolve) {
  HeldSolves held;
  Responder r(held.Runner());
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  std::future<QueryReply> first = r.AskAndServe(Leaderboard("rps", Model::kMl));
  std::future<QueryReply> second = r.AskAndServe(Leaderboard("rps", Model::kMl));
  EXPECT_EQ(held.solves.size(), 1u);  // one solve for both
  EXPECT_FALSE(Answered(first));
  EXPECT_FALSE(Answered(second));
  held.RunAll();
  ExpectMlDocument(first, rps);  // both the same body
  ExpectMlDocument(second, rps);
}

Query Suggest(const std::string& pool, ratings::active::SuggestStrategy strategy, size_t n,
              uint64_t seed = 0, double exploration = 0.1) {
  Query q;
  q.kind = Query::Kind::kSuggest;
  q.pool = pool;
  q.suggest = {strategy, n, exploration, seed};
  return q;
}

using ratings::active::SuggestStrategy;

TEST(QueryResponderTest, UcbSuggestionsAreTheTopPairsByHand) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  // Hand calculation from kCycle: games (points) A 4 (3), B 4 (2), C 3 (2), D 3 (0); T_total
  // 14. UCB = mean + √2·sqrt(ln 14 / T_a): A 1.8987, B 1.6487, C 1.9931, D 1.3264. Pairs by
  // sum: C+A 3.89, C+B 3.64, A+B 3.55, C+D 3.32, ...
  const QueryReply reply = r.Ask(Suggest("rps", SuggestStrategy::kUcb, 3));
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.body,
            R"({"pool":"rps","sequence":7,"strategy":"ucb","suggestions":[)"
            R"({"agents":["C","A"],"probability":1},{"agents":["C","B"],"probability":1},)"
            R"({"agents":["A","B"],"probability":1}]})");
  EXPECT_EQ(r.clock.solves(), 0);  // answered from the pool, no solve
}

TEST(QueryResponderTest, UniformSuggestionsAreSeededByTheSequenceAndClamped) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const QueryReply first = r.Ask(Suggest("rps", SuggestStrategy::kUniform, 5, 11));
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.body, r.Ask(Suggest("rps", SuggestStrategy::kUniform, 5, 11)).body);
  EXPECT_NE(first.body, r.Ask(Suggest("rps", SuggestStrategy::kUniform, 5, 12)).body);
  google::protobuf::Struct doc;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(first.body, &doc).ok());
  const auto& suggestions = doc.fields().at("suggestions").list_value();
  ASSERT_EQ(suggestions.values_size(), 5);
  for (const auto& s : suggestions.values()) {
    const auto& f = s.struct_value().fields();
    EXPECT_DOUBLE_EQ(f.at("probability").number_value(), 1.0 / 12);  // 1/(m(m-1)), m = 4
    EXPECT_NE(f.at("agents").list_value().values(0).string_value(),
              f.at("agents").list_value().values(1).string_value());
  }
  // A new result changes the sequence and so the draws.
  Responder::Play(rps, {{"A", "B"}});
  EXPECT_THAT(r.Ask(Suggest("rps", SuggestStrategy::kUniform, 5, 11)).body,
              HasSubstr(R"("sequence":8)"));
  // n above the cap is clamped.
  const QueryReply many = r.Ask(Suggest("rps", SuggestStrategy::kUniform, 5000));
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(many.body, &doc).ok());
  EXPECT_EQ(doc.fields().at("suggestions").list_value().values_size(),
            static_cast<int>(ratings::active::kMaxSuggestions));
}

TEST(QueryResponderTest, MlSuggestionsDrawFromTheSolvedLotteryAndShareItsSolve) {
  Responder r;
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const QueryReply reply = r.Ask(Suggest("rps", SuggestStrategy::kMl, 20, 3, 0.2));
  ASSERT_EQ(reply.status, 200) << reply.body;
  // The independent computation: `ratingctl rate --method ml`'s report of a copy, then the
  // library's draws from it.
  ratings::Pool copy = rps.pool();
  absl::StatusOr<v1::RatingReport> report = PoolReport(Model::kMl, copy, 0, 0);
  ASSERT_TRUE(report.ok());
  absl::StatusOr<google::protobuf::Struct> want =
      SuggestFromMlReport("rps", 7, *report, {SuggestStrategy::kMl, 20, 0.2, 3});
  ASSERT_TRUE(want.ok());
  EXPECT_EQ(reply.body, *DeterministicJson(*want));
  // The ml leaderboard reuses that solve.
  ASSERT_EQ(r.Ask(Leaderboard("rps", Model::kMl)).status, 200);
  EXPECT_EQ(r.clock.solves(), 1);
}

TEST(QueryResponderTest, SuggestErrorsAre404ForAnUnknownPoolAndMlOff) {
  Responder r;
  LivePoolConfig no_ml;
  no_ml.options.ml = false;
  LivePool& chess = r.Hold(0, "chess", no_ml);
  Responder::Play(chess, {{"A", "B"}});
  const QueryReply unknown = r.Ask(Suggest("go", SuggestStrategy::kUcb, 3));
  EXPECT_EQ(unknown.status, 404);
  EXPECT_THAT(unknown.body, HasSubstr("'go' is not held"));
  const QueryReply off = r.Ask(Suggest("chess", SuggestStrategy::kMl, 3));
  EXPECT_EQ(off.status, 404);
  EXPECT_THAT(off.body, HasSubstr("'ml' is off"));
  EXPECT_EQ(r.Ask(Suggest("chess", SuggestStrategy::kUcb, 3)).status, 200);
}

TEST(QueryResponderTest, SuggestionsChangeNoStateAndAreCounted) {
  Metrics metrics(10);
  Responder r(nullptr, &metrics);
  LivePool& rps = r.Hold(0, "rps");
  Responder::Play(rps, kCycle);
  const std::string before = rps.ToSnapshot().SerializeAsString();
  const std::string board = r.Ask(Leaderboard("rps", Model::kElo)).body;
  const uint64_t elo = rps.sequence(Model::kElo), ml = rps.sequence(Model::kMl);
  for (int i = 0; i < 30; ++i) {
    for (SuggestStrategy s :
         {SuggestStrategy::kUniform, SuggestStrategy::kUcb, SuggestStrategy::kMl}) {
      ASSERT_EQ(r.Ask(Suggest("rps", s, 4, static_cast<uint64_t>(i))).status, 200);
    }
  }
  EXPECT_EQ(rps.ToSnapshot().SerializeAsString(), before);
  EXPECT_EQ(rps.pool().results(), 7u);
  EXPECT_EQ(rps.sequence(Model::kElo), elo);
  EXPECT_EQ(rps.sequence(Model::kMl), ml);
  EXPECT_EQ(r.Ask(Leaderboard("rps", Model::kElo)).body, board);
  // One per suggested pair: 30 replies of 4 per strategy.
  EXPECT_EQ(metrics.Suggestions("uniform").Value(), 120);
  EXPECT_EQ(metrics.Suggestions("ucb").Value(), 120);
  EXPECT_EQ(metrics.Suggestions("ml").Value(), 120);
}

}  // namespace
}  // namespace ratingd::testing
