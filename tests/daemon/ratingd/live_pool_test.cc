#include "daemon/ratingd/live_pool.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/partition_state.h"
#include "gmock/gmock.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "gtest/gtest.h"
#include "ratings/ranking.h"

namespace ratingd {
namespace {

using ::testing::DoubleNear;

ratings::Result Order(std::vector<std::string> best_first) {
  ratings::Result r;
  for (size_t i = 0; i < best_first.size(); ++i) {
    r.standings.push_back({best_first[i], static_cast<uint32_t>(i + 1), std::nullopt});
  }
  return r;
}

LivePoolConfig EloOnly() {
  LivePoolConfig config;
  config.options.sco = false;
  config.options.ml = false;
  return config;
}

struct Applied {
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  LivePool::Outcome outcome;
};

Applied Apply(LivePool& pool, const ratings::Result& r, const std::string& game_id) {
  Applied a;
  absl::StatusOr<LivePool::Outcome> outcome =
      pool.Apply(r, game_id, google::protobuf::Timestamp(), &a.deltas, &a.job);
  EXPECT_TRUE(outcome.ok()) << outcome.status();
  a.outcome = *outcome;
  return a;
}

// Hand calculation (classic Elo, K = 32, docs/MODELS.md §2): A beats B from 1500 each: 1516 /
// 1484. Then C (new, 1500) beats B: E(C,B) = 1/(1+10^(-16/400)) = 0.523010, so C gains
// 32 (1 - E) = 15.263693 and B loses it. A keeps rank 1 and is not listed.
TEST(LivePoolTest, HandWorkedEloDeltas) {
  auto pool = *LivePool::Create("p", EloOnly());
  Applied first = Apply(*pool, Order({"A", "B"}), "g1");
  ASSERT_EQ(first.deltas.size(), 1u);
  const v1::RankingDelta& d1 = first.deltas[0];
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

  Applied second = Apply(*pool, Order({"C", "B"}), "g2");
  const v1::RankingDelta& d2 = second.deltas[0];
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
  EXPECT_EQ(Apply(*pool, Order({"A", "B"}), "g1").outcome, LivePool::Outcome::kApplied);
  Applied repeat = Apply(*pool, Order({"B", "A"}), "g1");
  EXPECT_EQ(repeat.outcome, LivePool::Outcome::kDuplicate);
  EXPECT_TRUE(repeat.deltas.empty());
  EXPECT_EQ(pool->pool().results(), 1u);
  Apply(*pool, Order({"A", "B"}), "g2");
  Apply(*pool, Order({"A", "B"}), "g3");  // g1 leaves the window of 2
  EXPECT_EQ(Apply(*pool, Order({"A", "B"}), "g1").outcome, LivePool::Outcome::kApplied);
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
    Applied a = Apply(*pool, r, absl::StrCat("g", step));
    ASSERT_EQ(a.deltas.size(), 2u);
    for (const v1::RankingDelta& d : a.deltas) {
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
  for (const std::string model : {"elo", "sco"}) {
    const v1::Leaderboard board = pool->Leaderboard(model);
    ASSERT_EQ(board.ranking_size(), static_cast<int>(mirror[model].size()));
    for (const v1::RankedAgent& r : board.ranking()) {
      EXPECT_EQ(mirror[model][r.agent()], std::make_pair(r.rank(), r.rating()));
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
    Apply(*pool, tie, absl::StrCat("tie", i));
  }
  Applied a = Apply(*pool, Order({"a", "z"}), "upset");
  const v1::RankingDelta& d = a.deltas[0];
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

std::string Bytes(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  m.SerializeToCodedStream(&coded);
  return out;
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
      Applied a = Apply(pool, results[i], ids[i]);
      for (const auto& d : a.deltas) out.push_back(Bytes(d));
      if (a.job) out.push_back(Bytes(pool.AcceptMlSolution(LivePool::Solve(*std::move(a.job)))));
    }
  };
  std::vector<std::string> whole;
  auto reference = *LivePool::Create("p", config);
  run(*reference, 0, results.size(), whole);
  for (size_t cut : {size_t{0}, size_t{13}, size_t{14}, size_t{101}}) {
    std::vector<std::string> got;
    auto first = *LivePool::Create("p", config);
    run(*first, 0, cut, got);
    auto second = LivePool::FromSnapshot(first->ToSnapshot(), config);
    ASSERT_TRUE(second.ok()) << second.status();
    run(**second, cut, results.size(), got);
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
    Applied a = Apply(*pool, Order(votes[i]), absl::StrCat(i));
    EXPECT_EQ(a.job.has_value(), i == 4);
    if (a.job) job = std::move(a.job);
  }
  v1::RankingDelta d = pool->AcceptMlSolution(LivePool::Solve(*std::move(job)));
  EXPECT_EQ(d.model(), "ml");
  EXPECT_EQ(d.sequence(), 1u);
  EXPECT_EQ(d.results(), 5u);
  const v1::Leaderboard board = pool->Leaderboard("ml");
  ASSERT_EQ(board.ranking_size(), 3);
  EXPECT_EQ(board.ranking(0).agent(), "C");
  EXPECT_EQ(board.lottery().at("C"), 1.0);
}

TEST(PartitionStateTest, SnapshotFileRoundTripAndErrors) {
  const std::string dir = ::testing::TempDir();
  LivePoolConfig config;
  PartitionState state;
  state.topic = "t";
  state.partition = 3;
  state.next_offset = 42;
  LivePool* pool = *state.GetOrCreate("p", config);
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  ASSERT_TRUE(pool->Apply(Order({"A", "B"}), "g", {}, &deltas, &job).ok());
  const std::string path = SnapshotPath(dir, "t", 3);
  const std::string fp = ParamsFingerprint(config);
  ASSERT_TRUE(WriteSnapshotFile(path, state.ToSnapshot(fp)).ok());
  auto read = ReadSnapshotFile(path);
  ASSERT_TRUE(read.ok() && read->has_value());
  auto restored = PartitionState::FromSnapshot(**read, config, fp);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->next_offset, 42);
  EXPECT_EQ(Bytes(restored->ToSnapshot(fp)), Bytes(state.ToSnapshot(fp)));

  LivePoolConfig other = config;
  other.options.elo_options.k = 16;
  auto refused = PartitionState::FromSnapshot(**read, other, ParamsFingerprint(other));
  EXPECT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              ::testing::HasSubstr("other model parameters"));

  auto missing = ReadSnapshotFile(SnapshotPath(dir, "t", 99));
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  {
    std::ofstream junk(SnapshotPath(dir, "t", 4));
    junk << "\xff\xff\xff not a snapshot";
  }
  auto bad = ReadSnapshotFile(SnapshotPath(dir, "t", 4));
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), ::testing::HasSubstr("t.4.snapshot"));
}

// The daemon's O(limit) report from its kept order equals PoolReport's (what ratingctl
// prints) computed from scratch by sorting.
TEST(LivePoolTest, ReportEqualsPoolReport) {
  LivePoolConfig config;
  config.options.ml = false;
  auto pool = *LivePool::Create("p", config);
  std::mt19937_64 rng(4);
  for (int i = 0; i < 300; ++i) {
    Apply(*pool, Order({absl::StrCat("c", rng() % 40), absl::StrCat("d", rng() % 40)}),
          absl::StrCat(i));
  }
  for (const std::string model : {"elo", "sco"}) {
    for (size_t limit : {size_t{0}, size_t{5}}) {
      ratings::Pool copy = pool->pool();
      absl::StatusOr<v1::RatingReport> expected = PoolReport(model, copy, limit);
      ASSERT_TRUE(expected.ok());
      EXPECT_EQ(*DeterministicJson(pool->Report(model, limit)), *DeterministicJson(*expected));
    }
  }
}

}  // namespace
}  // namespace ratingd
