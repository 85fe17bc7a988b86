// PoolHistory (ratings/pool_history.h): a point per agent after each of its results, with
// the model's rating and interval. Expected values by hand (Elo, K = 32) and from an
// independent Python implementation of [G2] (two new players, one win: 1662.3108939063,
// RD 290.3189637180).
#include "ratings/pool_history.h"

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/point_log.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::ratings::testing::StatusIs;
using ::testing::DoubleNear;
using ::testing::HasSubstr;

TEST(PoolHistoryTest, MlAndTinyCapacitiesAreRefused) {
  EXPECT_THAT(PoolHistory::Create(Model::kMl, 128).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ml has no rating")));
  EXPECT_THAT(PoolHistory::Create(Model::kElo, 3).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at least 4")));
}

// a beats b (1516 / 1484), then b beats c: E(b, c) = 1/(1 + 10^(16/400)) = 0.476990, so b
// gains 32 · 0.523010 = 16.736307 and c loses as much.
TEST(PoolHistoryTest, EloPointsAfterEachResultOfTheAgent) {
  PoolOptions options;
  options.sco = options.ml = false;
  Pool pool = *Pool::Create(options);
  PoolHistory history = *PoolHistory::Create(Model::kElo, 8);
  const absl::Time t = absl::FromUnixSeconds(1'700'000'000);
  ASSERT_THAT(pool.Apply(Order({"a", "b"}), t), IsOk());
  history.Record(pool, nullptr, t);
  ASSERT_THAT(pool.Apply(Order({"b", "c"})), IsOk());
  history.Record(pool, nullptr, std::nullopt);
  const AgentId a = *pool.index().Find("a"), b = *pool.index().Find("b"),
                c = *pool.index().Find("c");
  ASSERT_EQ(history.Of(a).size(), 1u);
  EXPECT_EQ(history.Of(a)[0].sequence, 1u);
  EXPECT_EQ(history.Of(a)[0].time, t);
  EXPECT_EQ(history.Of(a)[0].rating, 1516.0);
  EXPECT_TRUE(std::isnan(history.Of(a)[0].ci_low));  // no replicas, no interval
  ASSERT_EQ(history.Of(b).size(), 2u);
  EXPECT_EQ(history.Of(b)[0].rating, 1484.0);
  EXPECT_EQ(history.Of(b)[1].sequence, 2u);
  EXPECT_EQ(history.Of(b)[1].time, std::nullopt);
  EXPECT_THAT(history.Of(b)[1].rating, DoubleNear(1500.736306793522, 1e-9));
  ASSERT_EQ(history.Of(c).size(), 1u);
  EXPECT_THAT(history.Of(c)[0].rating, DoubleNear(1483.263693206478, 1e-9));
  EXPECT_TRUE(history.Of(99).empty());
}

// With replicas, a point's interval is the one the whole-pool computation gives then.
TEST(PoolHistoryTest, ElosIntervalIsTheBootstraps) {
  PoolOptions options;
  options.ml = false;
  Pool pool = *Pool::Create(options);
  OnlineBootstrap bootstrap = *OnlineBootstrap::Create({.replicas = 16, .seed = 7},
                                                       options.elo_options, options.sco_options);
  PoolHistory elo = *PoolHistory::Create(Model::kElo, 16);
  PoolHistory sco = *PoolHistory::Create(Model::kSco, 16);
  for (int i = 0; i < 30; ++i) {
    ASSERT_THAT(pool.Apply(Order({i % 3 == 0 ? "x" : "y", i % 2 == 0 ? "z" : "w"})), IsOk());
    bootstrap.Update(pool);
    elo.Record(pool, &bootstrap, std::nullopt);
    sco.Record(pool, &bootstrap, std::nullopt);
  }
  const AgentId z = *pool.index().Find("z");
  const RatingInterval want = bootstrap.EloIntervals(pool.elo()->ratings())[z];
  EXPECT_EQ(elo.Of(z).back().ci_low, want.low);
  EXPECT_EQ(elo.Of(z).back().ci_high, want.high);
  EXPECT_LT(want.low, want.high);
  const RatingInterval want_sco = bootstrap.ScoIntervals(pool.sco()->ratings())[z];
  EXPECT_EQ(sco.Of(z).back().ci_low, want_sco.low);
  EXPECT_EQ(sco.Of(z).back().rating, pool.sco()->Rating(z));
  EXPECT_EQ(elo.Of(z).size(), 15u);  // 15 results of z, capacity 16: none thinned yet
}

TEST(PoolHistoryTest, Glicko2sIntervalIsItsDeviation) {
  PoolOptions options;
  options.elo = options.sco = options.ml = false;
  options.glicko2 = true;
  Pool pool = *Pool::Create(options);
  PoolHistory history = *PoolHistory::Create(Model::kGlicko2, 4);
  ASSERT_THAT(pool.Apply(Order({"a", "b"})), IsOk());
  history.Record(pool, nullptr, std::nullopt);
  const HistoryPoint& p = history.Of(0)[0];
  EXPECT_THAT(p.rating, DoubleNear(1662.3108939063, 1e-6));
  EXPECT_THAT(p.ci_low, DoubleNear(1662.3108939063 - 1.96 * 290.3189637180, 1e-6));
  EXPECT_THAT(p.ci_high, DoubleNear(1662.3108939063 + 1.96 * 290.3189637180, 1e-6));
}

// A history exported and restored is the same; bad states are refused.
TEST(PoolHistoryTest, StateRoundTripsAndIsChecked) {
  PoolOptions options;
  options.sco = options.ml = false;
  Pool pool = *Pool::Create(options);
  PoolHistory history = *PoolHistory::Create(Model::kElo, 8);
  for (int i = 0; i < 40; ++i) {
    ASSERT_THAT(pool.Apply(Order({i % 2 ? "a" : "b", i % 3 ? "c" : "d"}),
                           absl::FromUnixSeconds(1'700'000'000 + i)),
                IsOk());
    history.Record(pool, nullptr, absl::FromUnixSeconds(1'700'000'000 + i));
  }
  const PoolHistoryState state = history.ExportState();
  EXPECT_EQ(state.counts.size(), 4u);
  PoolHistory restored = *PoolHistory::Create(Model::kElo, 8);
  ASSERT_THAT(restored.Restore(state), IsOk());
  for (AgentId a = 0; a < 4; ++a) {
    ASSERT_EQ(restored.Of(a).size(), history.Of(a).size());
    for (size_t i = 0; i < history.Of(a).size(); ++i) {
      EXPECT_EQ(restored.Of(a)[i].sequence, history.Of(a)[i].sequence);
      EXPECT_EQ(restored.Of(a)[i].time, history.Of(a)[i].time);
      EXPECT_EQ(restored.Of(a)[i].rating, history.Of(a)[i].rating);
    }
  }
  PoolHistoryState bad = state;
  bad.counts[0] += 1;
  EXPECT_THAT(restored.Restore(bad),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("add up to")));
  bad = state;
  std::swap(bad.points[0].sequence, bad.points[1].sequence);
  EXPECT_THAT(restored.Restore(bad),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("agent #0: sequence")));
}

// The staging log hands each agent's points over together, in the order they came, agents in
// the order they first appeared; drained, it starts again from nothing.
TEST(PointLogTest, DrainsAgentByAgentInArrivalOrder) {
  PointLog log;
  const std::vector<std::pair<AgentId, uint64_t>> in = {{7, 1}, {2, 2}, {7, 3},
                                                        {0, 4}, {2, 5}, {7, 6}};
  for (const auto& [a, sequence] : in) log.Append(a) = HistoryPoint{.sequence = sequence};
  std::vector<std::pair<AgentId, uint64_t>> out;
  const auto collect = [&](AgentId a, const HistoryPoint& p) { out.emplace_back(a, p.sequence); };
  log.Drain(collect);
  EXPECT_EQ(out, (std::vector<std::pair<AgentId, uint64_t>>{
                     {7, 1}, {7, 3}, {7, 6}, {2, 2}, {2, 5}, {0, 4}}));
  EXPECT_TRUE(log.empty());
  out.clear();
  log.Append(2) = HistoryPoint{.sequence = 8};
  log.Append(9) = HistoryPoint{.sequence = 9};
  log.Drain(collect);
  EXPECT_EQ(out, (std::vector<std::pair<AgentId, uint64_t>>{{2, 8}, {9, 9}}));
}

// The log asks to be drained at 4 points per agent of the pool (ids up to the highest seen),
// never below 256 points nor above 16,384 (values by hand from the rule in point_log.h).
TEST(PointLogTest, AsksToBeDrainedAtFourPointsPerAgentWithinItsBounds) {
  PointLog log;
  EXPECT_EQ(log.drain_at(), 256u);  // no agent yet: the floor
  log.Append(99) = HistoryPoint{};  // ids 0..99: 100 agents, 400 points
  EXPECT_EQ(log.drain_at(), 400u);
  for (size_t i = 1; i < 399; ++i) log.Append(i % 100) = HistoryPoint{};
  EXPECT_EQ(log.size(), 399u);
  EXPECT_FALSE(log.full());
  log.Append(0) = HistoryPoint{};
  EXPECT_TRUE(log.full());
  log.Drain([](AgentId, const HistoryPoint&) {});
  EXPECT_FALSE(log.full());
  EXPECT_EQ(log.drain_at(), 400u);     // the pool's size is remembered across drains
  log.Append(9'999) = HistoryPoint{};  // 10,000 agents would ask 40,000: the ceiling
  EXPECT_EQ(log.drain_at(), 16'384u);
}

// Staging changes nothing a reader sees: 60,000 results over 300 agents (more points than the
// log holds, so it also drains when full), read now and then on the way, give every agent the
// points that feeding its own RatingHistory one point at a time gives (the independent
// reference: the thinning rule alone, tested by hand in rating_history_test.cc).
TEST(PoolHistoryTest, StagedPointsAreThoseAddedOneAtATime) {
  PoolOptions options;
  options.sco = options.ml = false;
  Pool pool = *Pool::Create(options);
  PoolHistory history = *PoolHistory::Create(Model::kElo, 16);
  std::vector<RatingHistory> reference(300, RatingHistory(16));
  std::mt19937_64 rng(5);
  for (int i = 0; i < 60'000; ++i) {
    const std::string a = "p" + std::to_string(rng() % 300);
    std::string b = a;
    while (b == a) b = "p" + std::to_string(rng() % 300);
    const absl::Time t = absl::FromUnixSeconds(i);
    ASSERT_THAT(pool.Apply(Order({a, b}), t), IsOk());
    history.Record(pool, nullptr, t);
    for (const AgentId id : pool.last_applied().agents) {
      reference[id].Add({.sequence = pool.results(),
                         .time = t,
                         .rating = pool.elo()->Rating(id),
                         .ci_low = std::nan(""),
                         .ci_high = std::nan("")});
    }
    if (i % 7'919 == 0) {  // a reader in the middle: everything so far is in place
      const AgentId id = pool.last_applied().agents[0];
      ASSERT_EQ(history.Of(id).size(), reference[id].points().size());
      EXPECT_EQ(history.Of(id).back().sequence, pool.results());
    }
  }
  ASSERT_EQ(history.size(), 300u);
  for (AgentId id = 0; id < 300; ++id) {
    const absl::Span<const HistoryPoint> got = history.Of(id);
    const absl::Span<const HistoryPoint> want = reference[id].points();
    ASSERT_EQ(got.size(), want.size()) << "agent " << id;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].sequence, want[i].sequence);
      EXPECT_EQ(got[i].time, want[i].time);
      EXPECT_EQ(got[i].rating, want[i].rating);
    }
  }
}

}  // namespace
}  // namespace ratings
