#include "daemon/ratingd/live_pool.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/partition_state.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/model.h"
#include "ratings/ranking.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratingd::testing::Applied;
using ::ratingd::testing::Apply;
using ::ratingd::testing::Bytes;
using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::testing::DoubleNear;
using ::testing::Not;

LivePoolConfig EloOnly() {
  LivePoolConfig config;
  config.options.sco = false;
  config.options.ml = false;
  return config;
}

// Hand calculation (classic Elo, K = 32, docs/MODELS.md §2): A beats B from 1500 each: 1516 /
// 1484. Then C (new, 1500) beats B: E(C,B) = 1/(1+10^(-16/400)) = 0.523010, so C gains
// 32 (1 - E) = 15.263693 and B loses it. A keeps rank 1 and is not listed.
TEST(LivePoolTest, HandWorkedEloDeltas) {
  auto pool = *LivePool::Create("p", EloOnly());
  absl::StatusOr<Applied> first = Apply(*pool, Order({"A", "B"}), "g1");
  ASSERT_THAT(first, IsOk());
  ASSERT_EQ(first->deltas.size(), 1u);
  const v1::RankingDelta& d1 = first->deltas[0];
  EXPECT_EQ(d1.model(), "elo");
  EXPECT_EQ(d1.sequence(), 1u);
  EXPECT_EQ(d1.game_id(), "g1");
  ASSERT_EQ(d1.changes_size(), 2);
  EXPECT_EQ(d1.changes(0).agent(), "A");
  EXPECT_EQ(d1.changes(0).old_rank(), 0u);
  EXPECT_EQ(d1.changes(0).new_rank(), 1u);
  EXPECT_EQ(d1.changes(0).old_rating(), 1500);
  EXPECT_EQ(d1.changes(0).new_rating(), 1516);
  EXPECT_EQ(d1.changes(1).agent(), "B");
  EXPECT_EQ(d1.changes(1).new_rank(), 2u);
  EXPECT_EQ(d1.changes(1).new_rating(), 1484);

  absl::StatusOr<Applied> second = Apply(*pool, Order({"C", "B"}), "g2");
  ASSERT_THAT(second, IsOk());
  const v1::RankingDelta& d2 = second->deltas[0];
  EXPECT_EQ(d2.sequence(), 2u);
  ASSERT_EQ(d2.changes_size(), 2);
  EXPECT_EQ(d2.changes(0).agent(), "C");
  EXPECT_EQ(d2.changes(0).old_rank(), 0u);
  EXPECT_EQ(d2.changes(0).new_rank(), 2u);
  EXPECT_THAT(d2.changes(0).new_rating(), DoubleNear(1515.263693206478, 1e-9));
  EXPECT_EQ(d2.changes(1).agent(), "B");
  EXPECT_EQ(d2.changes(1).old_rank(), 2u);
  EXPECT_EQ(d2.changes(1).new_rank(), 3u);
  EXPECT_THAT(d2.changes(1).new_rating(), DoubleNear(1468.736306793522, 1e-9));
}

TEST(LivePoolTest, RepeatedGameIdIsSkippedInsideTheWindowOnly) {
  LivePoolConfig config = EloOnly();
  config.dedup_window = 2;
  auto pool = *LivePool::Create("p", config);
  absl::StatusOr<Applied> first = Apply(*pool, Order({"A", "B"}), "g1");
  ASSERT_THAT(first, IsOk());
  EXPECT_EQ(first->outcome, LivePool::Outcome::kApplied);
  absl::StatusOr<Applied> repeat = Apply(*pool, Order({"B", "A"}), "g1");
  ASSERT_THAT(repeat, IsOk());
  EXPECT_EQ(repeat->outcome, LivePool::Outcome::kDuplicate);
  EXPECT_TRUE(repeat->deltas.empty());
  EXPECT_EQ(pool->pool().results(), 1u);
  ASSERT_THAT(Apply(*pool, Order({"A", "B"}), "g2"), IsOk());
  ASSERT_THAT(Apply(*pool, Order({"A", "B"}), "g3"), IsOk());  // g1 leaves the window of 2
  absl::StatusOr<Applied> again = Apply(*pool, Order({"A", "B"}), "g1");
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->outcome, LivePool::Outcome::kApplied);
}

// Independent check of the deltas: after every result, the listed changes equal the
// difference between full rankings (ratings::RankByRating) before and after, and
// applying the deltas to a materialised leaderboard reproduces the pool's leaderboard.
TEST(LivePoolTest, DeltasEqualTheDifferenceOfFullRankings) {
  LivePoolConfig config;
  config.options.ml = false;
  config.max_displaced = 1'000'000;
  auto pool = *LivePool::Create("p", config);
  std::mt19937_64 rng(3);
  std::map<std::string, std::map<std::string, std::pair<uint32_t, double>>> mirror;
  for (int step = 0; step < 1500; ++step) {
    std::vector<std::string> players;
    const int k = 2 + static_cast<int>(rng() % 3);
    while (static_cast<int>(players.size()) < k) {
      std::string p = absl::StrCat("a", rng() % 30);
      if (std::find(players.begin(), players.end(), p) == players.end()) players.push_back(p);
    }
    ratings::Result r = Order(players);
    if (step % 7 == 0) r.standings[1].rank = 1;  // a tie
    const auto full = [&](const std::string& model) {
      std::map<std::string, std::pair<uint32_t, double>> out;
      const ratings::Pool& p = pool->pool();
      if (p.index().size() == 0) return out;
      auto ratings = model == "elo" ? p.elo()->ratings() : p.sco()->ratings();
      for (const auto& ra : ratings::RankByRating(ratings, p.index())) {
        out[p.index().Name(ra.id)] = {ra.rank, ra.rating};
      }
      return out;
    };
    const auto before_elo = full("elo"), before_sco = full("sco");
    absl::StatusOr<Applied> a = Apply(*pool, r, absl::StrCat("g", step));
    ASSERT_THAT(a, IsOk());
    ASSERT_EQ(a->deltas.size(), 2u);
    for (const v1::RankingDelta& d : a->deltas) {
      const auto& before = d.model() == "elo" ? before_elo : before_sco;
      const auto after = full(d.model());
      std::map<std::string, std::pair<uint32_t, double>> expected;
      for (const auto& [agent, now] : after) {
        auto it = before.find(agent);
        if (it == before.end() || it->second != now) expected[agent] = now;
      }
      std::map<std::string, std::pair<uint32_t, double>> got;
      for (const v1::AgentChange& c : d.changes()) {
        got[c.agent()] = {c.new_rank(), c.new_rating()};
        auto it = before.find(c.agent());
        ASSERT_EQ(c.old_rank(), it == before.end() ? 0u : it->second.first) << c.agent();
        mirror[d.model()][c.agent()] = {c.new_rank(), c.new_rating()};
      }
      ASSERT_EQ(got, expected) << "step " << step << " " << d.model();
      EXPECT_EQ(d.sequence(), static_cast<uint64_t>(step + 1));
      EXPECT_EQ(d.displaced_omitted(), 0u);
    }
  }
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    const v1::Leaderboard board = pool->Leaderboard(model);
    const std::string name(ratings::ModelName(model));
    EXPECT_EQ(board.model(), name);
    ASSERT_EQ(board.ranking_size(), static_cast<int>(mirror[name].size()));
    for (const v1::RankedAgent& r : board.ranking()) {
      EXPECT_EQ(mirror[name][r.agent()], std::make_pair(r.rank(), r.rating()));
    }
  }
}

// Hand calculation: ten agents m0..m9 held at 1500 by ties (a draw between equals moves
// nobody). Then new "a" beats new "z": a enters at 1516, above all ten (each moves down
// one rank), z at 1484 below them. Ten rank-only changes, two listed under the cap of 2.
TEST(LivePoolTest, DisplacedAgentsBeyondTheCapAreCounted) {
  LivePoolConfig config = EloOnly();
  config.max_displaced = 2;
  auto pool = *LivePool::Create("p", config);
  for (int i = 0; i < 10; i += 2) {
    ratings::Result tie = Order({absl::StrCat("m", i), absl::StrCat("m", i + 1)});
    tie.standings[1].rank = 1;
    ASSERT_THAT(Apply(*pool, tie, absl::StrCat("tie", i)), IsOk());
  }
  absl::StatusOr<Applied> a = Apply(*pool, Order({"a", "z"}), "upset");
  ASSERT_THAT(a, IsOk());
  const v1::RankingDelta& d = a->deltas[0];
  ASSERT_EQ(d.changes_size(), 4);
  EXPECT_EQ(d.changes(0).agent(), "a");
  EXPECT_EQ(d.changes(0).new_rank(), 1u);
  EXPECT_EQ(d.changes(1).agent(), "z");
  EXPECT_EQ(d.changes(1).new_rank(), 12u);
  EXPECT_EQ(d.changes(2).agent(), "m0");  // listed by new rank: m0 is now 2nd
  EXPECT_EQ(d.changes(2).old_rank(), 1u);
  EXPECT_EQ(d.changes(2).new_rank(), 2u);
  EXPECT_EQ(d.changes(3).agent(), "m1");
  EXPECT_EQ(d.displaced_omitted(), 8u);
}

// Snapshot at any result boundary, restore, continue: the same deltas (bytes) and the
// same final snapshot as the uninterrupted run. ML solves run synchronously here.
TEST(LivePoolTest, SnapshotRestoreContinuesWithIdenticalDeltas) {
  LivePoolConfig config;
  config.ml_solve_every = 7;
  config.dedup_window = 50;
  std::mt19937_64 rng(9);
  std::vector<ratings::Result> results;
  std::vector<std::string> ids;
  for (int i = 0; i < 120; ++i) {
    std::vector<std::string> players;
    while (players.size() < 3) {
      std::string p = absl::StrCat("b", rng() % 12);
      if (std::find(players.begin(), players.end(), p) == players.end()) players.push_back(p);
    }
    results.push_back(Order(players));
    ids.push_back(absl::StrCat("g", i % 100));  // some repeats
  }
  const auto run = [&](LivePool& pool, size_t from, size_t to, std::vector<std::string>& out) {
    for (size_t i = from; i < to; ++i) {
      absl::StatusOr<Applied> a = Apply(pool, results[i], ids[i]);
      ASSERT_THAT(a, IsOk());
      for (const auto& d : a->deltas) out.push_back(Bytes(d));
      if (a->job) out.push_back(Bytes(pool.AcceptMlSolution(LivePool::Solve(*std::move(a->job)))));
    }
  };
  std::vector<std::string> whole;
  auto reference = *LivePool::Create("p", config);
  ASSERT_NO_FATAL_FAILURE(run(*reference, 0, results.size(), whole));
  for (size_t cut : {size_t{0}, size_t{13}, size_t{14}, size_t{101}}) {
    std::vector<std::string> got;
    auto first = *LivePool::Create("p", config);
    ASSERT_NO_FATAL_FAILURE(run(*first, 0, cut, got));
    std::vector<DedupWindow::Segment> segments;
    for (const auto& s : first->dedup_window().sealed()) segments.push_back(*s);
    auto second = LivePool::FromSnapshot(first->ToSnapshot(), config, std::move(segments));
    ASSERT_THAT(second, IsOk()) << second.status();
    ASSERT_NO_FATAL_FAILURE(run(**second, cut, results.size(), got));
    ASSERT_EQ(got.size(), whole.size()) << "cut " << cut;
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], whole[i]) << "cut " << cut;
    EXPECT_EQ(Bytes((*second)->ToSnapshot()), Bytes(reference->ToSnapshot()));
  }
}

// [SCO] §4.1, Eq. (10): 2: A>B>C, 3: C>A>B. ML puts probability 1 on the Condorcet
// winner C, so its delta ranks C first.
TEST(LivePoolTest, MlSolutionDeltaRanksTheCondorcetWinnerFirst) {
  LivePoolConfig config;
  config.ml_solve_every = 5;
  auto pool = *LivePool::Create("p", config);
  std::optional<MlJob> job;
  const std::vector<std::vector<std::string>> votes = {
      {"A", "B", "C"}, {"C", "A", "B"}, {"A", "B", "C"}, {"C", "A", "B"}, {"C", "A", "B"}};
  for (size_t i = 0; i < votes.size(); ++i) {
    absl::StatusOr<Applied> a = Apply(*pool, Order(votes[i]), absl::StrCat(i));
    ASSERT_THAT(a, IsOk());
    EXPECT_EQ(a->job.has_value(), i == 4);
    if (a->job) job = std::move(a->job);
  }
  v1::RankingDelta d = pool->AcceptMlSolution(LivePool::Solve(*std::move(job)));
  EXPECT_EQ(d.model(), "ml");
  EXPECT_EQ(d.sequence(), 1u);
  EXPECT_EQ(d.results(), 5u);
  const v1::Leaderboard board = pool->Leaderboard(ratings::Model::kMl);
  ASSERT_EQ(board.ranking_size(), 3);
  EXPECT_EQ(board.ranking(0).agent(), "C");
  EXPECT_EQ(board.lottery().at("C"), 1.0);
}

// Hand count: with ml solved every 2 results, 5 applied results (and one repeat, which
// changes nothing) give elo and sco sequence 5 (one per applied result) and ml sequence 2
// (solves scheduled after results 2 and 4). Each model has its own counter.
TEST(LivePoolTest, SequenceIsPerModel) {
  LivePoolConfig config;
  config.ml_solve_every = 2;
  auto pool = *LivePool::Create("p", config);
  const std::vector<std::vector<std::string>> games = {
      {"A", "B"}, {"B", "C"}, {"C", "A"}, {"A", "B", "C"}, {"C", "B"}};
  for (size_t i = 0; i < games.size(); ++i) {
    absl::StatusOr<Applied> a = Apply(*pool, Order(games[i]), absl::StrCat("g", i));
    ASSERT_THAT(a, IsOk());
    if (a->job) pool->AcceptMlSolution(LivePool::Solve(*std::move(a->job)));
  }
  absl::StatusOr<Applied> repeat = Apply(*pool, Order({"A", "B"}), "g0");
  ASSERT_THAT(repeat, IsOk());
  EXPECT_EQ(repeat->outcome, LivePool::Outcome::kDuplicate);
  EXPECT_EQ(pool->sequence(ratings::Model::kElo), 5u);
  EXPECT_EQ(pool->sequence(ratings::Model::kSco), 5u);
  EXPECT_EQ(pool->sequence(ratings::Model::kMl), 2u);
  EXPECT_EQ(pool->Leaderboard(ratings::Model::kElo).sequence(), 5u);
  EXPECT_EQ(pool->Leaderboard(ratings::Model::kSco).sequence(), 5u);
  EXPECT_EQ(pool->Leaderboard(ratings::Model::kMl).sequence(), 2u);
  EXPECT_EQ(pool->Leaderboard(ratings::Model::kMl).model(), "ml");
}

// The daemon's O(limit) report from its kept order equals PoolReport's (what ratingctl
// prints) computed from scratch by sorting, beside the uncertainty fields only ratingd adds
// (live_pool_intervals_test.cc).
TEST(LivePoolTest, ReportEqualsPoolReport) {
  LivePoolConfig config;
  config.options.ml = false;
  auto pool = *LivePool::Create("p", config);
  std::mt19937_64 rng(4);
  for (int i = 0; i < 300; ++i) {
    ASSERT_THAT(Apply(*pool, Order({absl::StrCat("c", rng() % 40), absl::StrCat("d", rng() % 40)}),
                      absl::StrCat(i)),
                IsOk());
  }
  for (const ratings::Model model : {ratings::Model::kElo, ratings::Model::kSco}) {
    for (size_t limit : {size_t{0}, size_t{5}}) {
      ratings::Pool copy = pool->pool();
      absl::StatusOr<v1::RatingReport> expected = PoolReport(model, copy, limit, 0);
      ASSERT_THAT(expected, IsOk());
      v1::RatingReport got = pool->Report(model, limit);
      for (v1::RankedAgent& r : *got.mutable_ranking()) {
        EXPECT_TRUE(r.has_games() && r.has_provisional() && r.has_ci_low() && r.has_rank_low());
        r.clear_games();
        r.clear_provisional();
        r.clear_ci_low();
        r.clear_ci_high();
        r.clear_rank_low();
        r.clear_rank_high();
      }
      EXPECT_EQ(*DeterministicJson(got), *DeterministicJson(*expected));
    }
  }
}

}  // namespace
}  // namespace ratingd
