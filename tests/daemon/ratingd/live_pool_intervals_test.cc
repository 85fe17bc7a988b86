// Live intervals of a LivePool (docs/MODELS.md §5.6): games, provisional, the elo and sco
// intervals from the bootstrap replicas, rank intervals, and their survival through
// snapshots of this format and of earlier ones.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/wire_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/model.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

// The replica steps of a snapshot's bytes field (ZigZag varints), decoded.
std::vector<int64_t> Steps(const std::string& payload) {
  const int64_t n = wire::CountVarints(payload);
  EXPECT_GE(n, 0);
  wire::Sint64Reader reader(payload);
  std::vector<int64_t> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(reader.Next());
  return out;
}

using ::ratingd::testing::Apply;
using ::ratingd::testing::Bytes;
using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

// 300 two- and three-agent results among 8 agents, agent "a7" only in the last three.
std::vector<ratings::Result> Stream() {
  std::mt19937_64 rng(21);
  std::vector<ratings::Result> out;
  for (int i = 0; i < 300; ++i) {
    std::vector<std::string> players;
    const size_t k = i % 3 == 0 ? 3 : 2;
    while (players.size() < k) {
      std::string p = absl::StrCat("a", rng() % 7);
      if (std::find(players.begin(), players.end(), p) == players.end()) players.push_back(p);
    }
    if (i >= 297) players.back() = "a7";
    out.push_back(Order(players));
  }
  return out;
}

void ApplyAll(LivePool& pool, const std::vector<ratings::Result>& results, size_t from = 0) {
  for (size_t i = from; i < results.size(); ++i) {
    ASSERT_THAT(Apply(pool, results[i], absl::StrCat("g", i)), IsOk());
  }
}

TEST(LivePoolIntervalsTest, GamesCountResultsAndMarkProvisional) {
  LivePoolConfig config;
  config.options.ml = false;
  config.provisional_games = 20;
  auto pool = *LivePool::Create("p", config);
  const std::vector<ratings::Result> results = Stream();
  ApplyAll(*pool, results);
  std::map<std::string, uint32_t> counted;  // by hand: results each agent is in
  for (const ratings::Result& r : results) {
    for (const ratings::Standing& s : r.standings) ++counted[s.agent];
  }
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    const v1::Leaderboard board = pool->Leaderboard(model);
    ASSERT_EQ(board.ranking_size(), 8);
    for (const v1::RankedAgent& r : board.ranking()) {
      EXPECT_EQ(r.games(), counted[r.agent()]) << r.agent();
      EXPECT_EQ(r.provisional(), counted[r.agent()] < 20) << r.agent();
    }
  }
  EXPECT_EQ(counted["a7"], 3u);
}

// The published interval is the point ± 1.96 sd of the agent's replicas (recomputed here from
// the replicas), holds the point, and the rank interval is LMArena's rule counted by brute
// force over every pair of agents.
TEST(LivePoolIntervalsTest, LeaderboardIntervalsFollowTheReplicasAndTheRankRule) {
  LivePoolConfig config;
  config.options.ml = false;
  auto pool = *LivePool::Create("p", config);
  ApplyAll(*pool, Stream());
  ASSERT_NE(pool->bootstrap(), nullptr);
  EXPECT_EQ(pool->bootstrap()->replicas(), 16u);
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    const v1::Leaderboard board = pool->Leaderboard(model);
    for (const v1::RankedAgent& r : board.ranking()) {
      const ratings::AgentId id = *pool->pool().index().Find(r.agent());
      const absl::Span<const double> replicas = model == ratings::Model::kElo
                                                    ? pool->bootstrap()->EloReplicas(id)
                                                    : pool->bootstrap()->ScoReplicas(id);
      double mean = 0, sq = 0;
      for (double x : replicas) mean += x / 16;
      for (double x : replicas) sq += (x - mean) * (x - mean);
      const double half = 1.959963984540054 * std::sqrt(sq / 15);
      EXPECT_GT(half, 0) << r.agent();  // 300 results: the replicas have spread apart
      EXPECT_NEAR(
          r.ci_low(),
          model == ratings::Model::kSco ? std::max(0.0, r.rating() - half) : r.rating() - half,
          1e-9);
      EXPECT_NEAR(
          r.ci_high(),
          model == ratings::Model::kSco ? std::min(100.0, r.rating() + half) : r.rating() + half,
          1e-9);
      EXPECT_LE(r.ci_low(), r.rating());
      EXPECT_GE(r.ci_high(), r.rating());
      uint32_t above = 0, below = 0;
      for (const v1::RankedAgent& o : board.ranking()) {
        above += o.ci_low() > r.ci_high() ? 1 : 0;
        below += o.ci_high() < r.ci_low() ? 1 : 0;
      }
      EXPECT_EQ(r.rank_low(), 1 + above) << r.agent();
      EXPECT_EQ(r.rank_high(), 8 - below) << r.agent();
      EXPECT_LE(r.rank_low(), r.rank());
      EXPECT_GE(r.rank_high(), r.rank());
    }
  }
}

TEST(LivePoolIntervalsTest, WithoutReplicasOnlyGamesAndProvisional) {
  LivePoolConfig config;
  config.bootstrap_replicas = 0;
  auto pool = *LivePool::Create("p", config);
  ApplyAll(*pool, Stream());
  EXPECT_EQ(pool->bootstrap(), nullptr);
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    const v1::Leaderboard board = pool->Leaderboard(model);
    for (const v1::RankedAgent& r : board.ranking()) {
      EXPECT_FALSE(r.has_ci_low() || r.has_ci_high() || r.has_rank_low() || r.has_rank_high());
      EXPECT_TRUE(r.has_games() && r.has_provisional());
    }
  }
  EXPECT_EQ(pool->ToSnapshot().bootstrap_replicas(), 0u);
  EXPECT_EQ(pool->ToSnapshot().elo_replicas_size(), 0);
}

// Restart equality: a pool restored from a snapshot at any cut and fed the rest publishes
// byte-identical leaderboards (intervals included) and snapshots as the uninterrupted pool;
// two pools of the same name fed the same results agree bit for bit, and the pool's name
// seeds the replicas (another name, other intervals).
TEST(LivePoolIntervalsTest, RestoreAndReplayGiveIdenticalIntervals) {
  LivePoolConfig config;
  config.ml_solve_every = 50;
  const std::vector<ratings::Result> results = Stream();
  auto reference = *LivePool::Create("p", config);
  ApplyAll(*reference, results);
  auto again = *LivePool::Create("p", config);
  ApplyAll(*again, results);
  auto other_name = *LivePool::Create("q", config);
  ApplyAll(*other_name, results);
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    EXPECT_EQ(Bytes(again->Leaderboard(model)), Bytes(reference->Leaderboard(model)));
    EXPECT_NE(other_name->Leaderboard(model).ranking(0).ci_low(),
              reference->Leaderboard(model).ranking(0).ci_low());
  }
  for (size_t cut : {size_t{0}, size_t{1}, size_t{150}, size_t{299}}) {
    auto first = *LivePool::Create("p", config);
    for (size_t i = 0; i < cut; ++i) {
      ASSERT_THAT(Apply(*first, results[i], absl::StrCat("g", i)), IsOk());
    }
    const v1::PoolSnapshot snapshot = first->ToSnapshot();
    EXPECT_EQ(snapshot.bootstrap_replicas(), 16u);
    EXPECT_EQ(Steps(snapshot.elo_replica_steps()).size(), 16u * snapshot.agents_size());
    EXPECT_EQ(snapshot.elo_replicas_size(), 0);  // format 3's doubles are no longer written
    auto second = LivePool::FromSnapshot(snapshot, config);
    ASSERT_THAT(second, IsOk()) << second.status();
    // The intervals right after the restore are those before it, bit for bit.
    for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
      EXPECT_EQ(Bytes((*second)->Leaderboard(model)), Bytes(first->Leaderboard(model)))
          << "cut " << cut;
    }
    ApplyAll(**second, results, cut);
    for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
      EXPECT_EQ(Bytes((*second)->Leaderboard(model)), Bytes(reference->Leaderboard(model)))
          << "cut " << cut;
    }
    EXPECT_EQ(Bytes((*second)->ToSnapshot()), Bytes(reference->ToSnapshot())) << "cut " << cut;
  }
}

// A pool of 5,000 agents restores its replicas on a second thread (pool_snapshot.cc) while
// the pool is built: the same bytes as the pool snapshotted, and a bad step is still refused.
TEST(LivePoolIntervalsTest, LargePoolRestoresItsReplicasOnASecondThread) {
  LivePoolConfig config;
  config.options.ml = false;
  auto first = *LivePool::Create("p", config);
  // Every agent plays once in the first 2,500 results, then random pairs.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> agent(0, 4999);
  for (int i = 0; i < 3000; ++i) {
    const int a = i < 2500 ? i : agent(rng);
    int b = i < 2500 ? i + 2500 : agent(rng);
    if (b == a) b = (a + 1) % 5000;
    ASSERT_THAT(
        Apply(*first, Order({absl::StrCat("a", a), absl::StrCat("a", b)}), absl::StrCat("g", i)),
        IsOk());
  }
  v1::PoolSnapshot snapshot = first->ToSnapshot();
  ASSERT_EQ(snapshot.agents_size(), 5000);
  const auto segments = [&] {
    std::vector<DedupWindow::Segment> out;
    for (const auto& segment : first->dedup_window().sealed()) out.push_back(*segment);
    return out;
  };
  auto second = LivePool::FromSnapshot(snapshot, config, segments());
  ASSERT_THAT(second, IsOk()) << second.status();
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    EXPECT_EQ(Bytes((*second)->Leaderboard(model)), Bytes(first->Leaderboard(model)));
  }
  EXPECT_EQ(Bytes((*second)->ToSnapshot()), Bytes(snapshot));
  // Agent #4999's last sco replica 10^6 steps above its point: beyond SCO's [0, 100].
  std::vector<int64_t> sco = Steps(snapshot.sco_replica_steps());
  sco.back() = 1000000;
  std::string payload;
  wire::AppendSint64s(sco, payload);
  snapshot.set_sco_replica_steps(payload);
  EXPECT_THAT(LivePool::FromSnapshot(snapshot, config, segments()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("pool 'p': bootstrap: sco: replica 15 of agent #4999")));
}

// Format 3 stored the replicas as doubles (fields 22, 23). Such a snapshot still restores:
// values on the grid exactly (here the format-4 steps turned back into doubles by the rule
// of docs/MODELS.md §5.6, written out), values off it snapped to the nearest grid value.
TEST(LivePoolIntervalsTest, FormatThreeReplicaValuesStillRestore) {
  LivePoolConfig config;
  config.options.ml = false;
  auto pool = *LivePool::Create("p", config);
  ApplyAll(*pool, Stream());
  const v1::PoolSnapshot current = pool->ToSnapshot();
  const double elo_step = 32.0 / 1024, sco_step = 0.1 / 1024;  // K/1024, (alpha/tau)/1024
  v1::PoolSnapshot old = current;
  old.clear_elo_replica_steps();
  old.clear_sco_replica_steps();
  const std::vector<int64_t> elo_steps = Steps(current.elo_replica_steps());
  const std::vector<int64_t> sco_steps = Steps(current.sco_replica_steps());
  for (size_t i = 0; i < elo_steps.size(); ++i) {
    const int agent = static_cast<int>(i / 16);
    old.add_elo_replicas(
        (std::nearbyint(current.elo(agent) / elo_step) + static_cast<double>(elo_steps[i])) *
        elo_step);
    old.add_sco_replicas(
        (std::nearbyint(current.sco(agent) / sco_step) + static_cast<double>(sco_steps[i])) *
        sco_step);
  }
  auto restored = LivePool::FromSnapshot(old, config);
  ASSERT_THAT(restored, IsOk()) << restored.status();
  EXPECT_EQ(Bytes((*restored)->ToSnapshot()), Bytes(current));
  // Off the grid by less than half a step: the same state.
  for (double& v : *old.mutable_elo_replicas()) v += 0.3 * elo_step;
  for (double& v : *old.mutable_sco_replicas())
    v += (v < 50 ? 0.3 : -0.3) * sco_step;  // in [0, 100]
  restored = LivePool::FromSnapshot(old, config);
  ASSERT_THAT(restored, IsOk()) << restored.status();
  EXPECT_EQ(Bytes((*restored)->ToSnapshot()), Bytes(current));
}

// A snapshot of format 2 (no replicas, no result counts) restores: the replicas start at
// the point ratings (zero width) and the counts at 0. A snapshot with another number of
// replicas restores the same way.
TEST(LivePoolIntervalsTest, SnapshotWithoutReplicasStartsThemAtThePoint) {
  LivePoolConfig config;
  config.options.ml = false;
  auto pool = *LivePool::Create("p", config);
  const std::vector<ratings::Result> results = Stream();
  ApplyAll(*pool, results);
  v1::PoolSnapshot old = pool->ToSnapshot();
  old.clear_bootstrap_replicas();
  old.clear_elo_replica_steps();
  old.clear_sco_replica_steps();
  old.clear_result_counts();
  LivePoolConfig eight = config;
  eight.bootstrap_replicas = 8;
  for (const auto& [snapshot, cfg] :
       {std::pair(old, config), std::pair(pool->ToSnapshot(), eight)}) {
    auto restored = LivePool::FromSnapshot(snapshot, cfg);
    ASSERT_THAT(restored, IsOk()) << restored.status();
    const v1::Leaderboard board = (*restored)->Leaderboard(ratings::Model::kElo);
    EXPECT_EQ(Bytes((*restored)->Report(ratings::Model::kElo, 0).ranking(0)),
              Bytes(board.ranking(0)));
    for (const v1::RankedAgent& r : board.ranking()) {
      EXPECT_EQ(r.ci_low(), r.rating());
      EXPECT_EQ(r.ci_high(), r.rating());
      EXPECT_EQ(r.rank_low(), r.rank());  // zero-width intervals never overlap
      EXPECT_EQ(r.rank_high(), r.rank());
    }
    // The replicas move again with the next results.
    ASSERT_THAT(Apply(**restored, results[0], "next"), IsOk());
    ASSERT_THAT(Apply(**restored, results[1], "next2"), IsOk());
    const ratings::AgentId moved = *(*restored)->pool().index().Find(results[0].standings[0].agent);
    const absl::Span<const double> replicas = (*restored)->bootstrap()->EloReplicas(moved);
    EXPECT_NE(*std::min_element(replicas.begin(), replicas.end()),
              *std::max_element(replicas.begin(), replicas.end()));
  }
  auto restored = *LivePool::FromSnapshot(old, config);
  const v1::Leaderboard sco = restored->Leaderboard(ratings::Model::kSco);
  for (const v1::RankedAgent& r : sco.ranking()) {
    EXPECT_EQ(r.games(), 0u);
    EXPECT_TRUE(r.provisional());
  }
  // A replica state that does not fit is refused, naming the pool.
  v1::PoolSnapshot bad = pool->ToSnapshot();
  std::vector<int64_t> one_short = Steps(bad.elo_replica_steps());
  one_short.pop_back();
  bad.clear_elo_replica_steps();
  wire::AppendSint64s(one_short, *bad.mutable_elo_replica_steps());
  EXPECT_THAT(LivePool::FromSnapshot(bad, config).status(),
              ::ratings::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                           ::testing::HasSubstr("pool 'p': bootstrap: elo")));
  // And steps that are not a sequence of varints (the payload ends inside one).
  v1::PoolSnapshot cut = pool->ToSnapshot();
  cut.mutable_sco_replica_steps()->push_back('\x80');
  EXPECT_THAT(LivePool::FromSnapshot(cut, config).status(),
              ::ratings::testing::StatusIs(
                  absl::StatusCode::kInvalidArgument,
                  ::testing::HasSubstr("bootstrap: sco: the replica steps are not varints")));
}

}  // namespace
}  // namespace ratingd
