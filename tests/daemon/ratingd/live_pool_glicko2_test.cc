// LivePool with glicko2 on (docs/MODELS.md §10): its deltas beside elo's, its leaderboard's
// fields, results without an event time, and snapshots. Expected ratings come from an
// independent Python implementation of [G2]'s steps (step 5 by bisection): two new players
// (1500, 350, 0.06), one win: 1662.3108939063 / 1337.6891060937, RD 290.3189637180,
// σ 0.0599996754; the winner's RD two days later, grown by √(φ² + 2σ²): 290.6929291128.
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "daemon/methods/run_rate.h"
#include "daemon/ratingd/live_pool.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/game_result_proto.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratingd::testing::Bytes;
using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);  // 2023-11-14T22:13:20Z

LivePoolConfig EloAndGlicko2() {
  LivePoolConfig config;
  config.options.sco = false;
  config.options.ml = false;
  config.options.glicko2 = true;
  return config;
}

// Applies `order` as `game_id` at event time `time` (nullopt: none).
std::vector<v1::RankingDelta> ApplyAt(LivePool& pool, const std::vector<std::string>& order,
                                      const std::string& game_id, std::optional<absl::Time> time) {
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  const google::protobuf::Timestamp stamp =
      time ? ratings::io::TimestampOf(*time) : google::protobuf::Timestamp();
  EXPECT_THAT(pool.Apply(Order(order), game_id, time ? &stamp : nullptr, -1, &deltas, &job),
              IsOk());
  return deltas;
}

TEST(LivePoolGlicko2Test, ItsDeltaFollowsElosWithTheModelsRatings) {
  std::unique_ptr<LivePool> pool = *LivePool::Create("p", EloAndGlicko2());
  const std::vector<v1::RankingDelta> deltas = ApplyAt(*pool, {"a", "b"}, "g1", kT0);
  ASSERT_EQ(deltas.size(), 2u);
  EXPECT_EQ(deltas[0].model(), "elo");
  const v1::RankingDelta& d = deltas[1];
  EXPECT_EQ(d.model(), "glicko2");
  EXPECT_EQ(d.sequence(), 1u);
  EXPECT_EQ(d.game_id(), "g1");
  EXPECT_EQ(d.event_time().seconds(), 1'700'000'000);
  ASSERT_EQ(d.changes_size(), 2);
  EXPECT_EQ(d.changes(0).agent(), "a");
  EXPECT_EQ(d.changes(0).old_rating(), 1500.0);
  EXPECT_NEAR(d.changes(0).new_rating(), 1662.3108939063, 1e-6);
  EXPECT_EQ(d.changes(0).old_rank(), 0u);
  EXPECT_EQ(d.changes(0).new_rank(), 1u);
  EXPECT_NEAR(d.changes(1).new_rating(), 1337.6891060937, 1e-6);
  EXPECT_EQ(d.changes(1).new_rank(), 2u);
  EXPECT_EQ(pool->sequence(ratings::Model::kGlicko2), 1u);

  // c, new, beats b: b falls to 3rd, a is displaced from nowhere (its rank stays 1).
  const std::vector<v1::RankingDelta> next = ApplyAt(*pool, {"c", "b"}, "g2", kT0);
  ASSERT_EQ(next.size(), 2u);
  EXPECT_EQ(next[1].sequence(), 2u);
  for (const v1::AgentChange& c : next[1].changes()) EXPECT_NE(c.agent(), "a");
}

TEST(LivePoolGlicko2Test, LeaderboardCarriesTheDeviationGrownToTheLatestEventTime) {
  LivePoolConfig config = EloAndGlicko2();
  std::unique_ptr<LivePool> pool = *LivePool::Create("p", config);
  ApplyAt(*pool, {"a", "b"}, "g1", kT0);
  ApplyAt(*pool, {"c", "d"}, "g2", kT0 + absl::Hours(48));
  const v1::Leaderboard board = pool->Leaderboard(ratings::Model::kGlicko2);
  EXPECT_EQ(board.model(), "glicko2");
  EXPECT_EQ(board.sequence(), 2u);
  EXPECT_EQ(board.params().fields().at("period").string_value(), "24h");
  ASSERT_EQ(board.ranking_size(), 4);
  // a and c have bit-identical ratings: by agent id.
  const v1::RankedAgent& a = board.ranking(0);
  const v1::RankedAgent& c = board.ranking(1);
  EXPECT_EQ(a.agent(), "a");
  EXPECT_EQ(c.agent(), "c");
  EXPECT_NEAR(a.rating(), 1662.3108939063, 1e-6);
  EXPECT_NEAR(a.rd(), 290.6929291128, 1e-6);  // grown for the two days since its result
  EXPECT_NEAR(c.rd(), 290.3189637180, 1e-6);
  EXPECT_NEAR(a.volatility(), 0.0599996754, 1e-9);
  EXPECT_EQ(a.last_played().seconds(), 1'700'000'000);
  EXPECT_EQ(c.last_played().seconds(), 1'700'000'000 + 48 * 3600);
  EXPECT_DOUBLE_EQ(a.ci_low(), a.rating() - 1.96 * a.rd());
  EXPECT_DOUBLE_EQ(a.ci_high(), a.rating() + 1.96 * a.rd());
  for (const v1::RankedAgent& e : board.ranking()) {
    EXPECT_EQ(e.rank_low(), 1u) << e.agent();  // every interval overlaps every other
    EXPECT_EQ(e.rank_high(), 4u) << e.agent();
    EXPECT_EQ(e.games(), 1u);
    EXPECT_TRUE(e.provisional()) << e.agent();  // rd > 110 and 1 game < 20
  }
  // Provisional by deviation alone: no games bound, rd above 290.5 for a only.
  config.provisional_games = 0;
  config.provisional_rd = 290.5;
  std::unique_ptr<LivePool> lenient = *LivePool::Create("p", config);
  ApplyAt(*lenient, {"a", "b"}, "g1", kT0);
  ApplyAt(*lenient, {"c", "d"}, "g2", kT0 + absl::Hours(48));
  const v1::Leaderboard relaxed = lenient->Leaderboard(ratings::Model::kGlicko2);
  EXPECT_TRUE(relaxed.ranking(0).provisional());
  EXPECT_FALSE(relaxed.ranking(1).provisional());
  // The elo board is unchanged by glicko2's presence: no rd.
  EXPECT_FALSE(pool->Leaderboard(ratings::Model::kElo).ranking(0).has_rd());
}

// A result without an event time takes the pool's latest: b's deviation does not grow for
// the second result (its last time is the latest), and the delta's event_time is empty.
TEST(LivePoolGlicko2Test, AResultWithoutATimeTakesThePoolsLatest) {
  std::unique_ptr<LivePool> pool = *LivePool::Create("p", EloAndGlicko2());
  ApplyAt(*pool, {"a", "b"}, "g1", kT0);
  const std::vector<v1::RankingDelta> deltas = ApplyAt(*pool, {"c", "a"}, "g2", std::nullopt);
  EXPECT_TRUE(deltas[1].has_event_time());
  EXPECT_EQ(deltas[1].event_time().seconds(), 0);
  const v1::Leaderboard board = pool->Leaderboard(ratings::Model::kGlicko2);
  for (const v1::RankedAgent& e : board.ranking()) {
    if (e.agent() == "c") {
      EXPECT_EQ(e.last_played().seconds(), 1'700'000'000);
    }
    if (e.agent() == "b") {
      EXPECT_NEAR(e.rd(), 290.3189637180, 1e-6);
    }
  }
}

// The leaderboard's entries are `ratingctl rate --method glicko2`'s on the same results.
TEST(LivePoolGlicko2Test, ReportIsRatingctlRatesOnTheSameResults) {
  std::unique_ptr<LivePool> pool = *LivePool::Create("p", EloAndGlicko2());
  std::vector<ratings::io::ResultRecord> records;
  std::mt19937_64 rng(4);
  for (int i = 0; i < 120; ++i) {
    const std::string w = absl::StrCat("m", rng() % 12), l = absl::StrCat("m", rng() % 12);
    if (w == l) continue;
    const absl::Time t = kT0 + absl::Minutes(37 * i);
    ApplyAt(*pool, {w, l}, absl::StrCat("g", i), t);
    ratings::io::ResultRecord& r = records.emplace_back();
    r.pool = "p";
    r.result = Order({w, l});
    r.event_time = t;
  }
  absl::StatusOr<v1::RatingReport> expected = RateRecords({.method = "glicko2"}, records, 0);
  ASSERT_THAT(expected, IsOk());
  const v1::RatingReport report = pool->Report(ratings::Model::kGlicko2, 0);
  ASSERT_EQ(report.ranking_size(), expected->ranking_size());
  for (int i = 0; i < report.ranking_size(); ++i) {
    EXPECT_EQ(Bytes(report.ranking(i)), Bytes(expected->ranking(i))) << i;
  }
  EXPECT_EQ(report.extra().fields().at("latest_event_time").string_value(),
            expected->extra().fields().at("latest_event_time").string_value());
}

// A pool restored from its snapshot continues bit-identically: the same snapshot bytes and
// the same deltas as the uninterrupted pool, with times to the nanosecond and untimed results.
TEST(LivePoolGlicko2Test, SnapshotRestoresAndContinuesBitIdentically) {
  LivePoolConfig config = EloAndGlicko2();
  config.history_points = 4;  // the histories too: thinned before and after the cut
  std::unique_ptr<LivePool> whole = *LivePool::Create("p", config);
  std::unique_ptr<LivePool> first = *LivePool::Create("p", config);
  std::mt19937_64 rng(8);
  const auto result = [&](int i) {
    const std::optional<absl::Time> t =
        i % 4 == 3 ? std::nullopt
                   : std::optional(kT0 + absl::Seconds(5000 * i) + absl::Nanoseconds(rng() % 999));
    return std::pair(
        std::vector<std::string>{absl::StrCat("x", rng() % 7), absl::StrCat("y", rng() % 7)}, t);
  };
  std::vector<std::pair<std::vector<std::string>, std::optional<absl::Time>>> stream;
  for (int i = 0; i < 80; ++i) stream.push_back(result(i));
  for (int i = 0; i < 40; ++i) {
    ApplyAt(*whole, stream[i].first, absl::StrCat("g", i), stream[i].second);
    ApplyAt(*first, stream[i].first, absl::StrCat("g", i), stream[i].second);
  }
  const v1::PoolSnapshot snapshot = first->ToSnapshot();
  ASSERT_TRUE(snapshot.has_glicko2());
  ASSERT_EQ(snapshot.histories_size(), 2);  // elo's and glicko2's
  EXPECT_EQ(snapshot.histories(1).model(), "glicko2");
  EXPECT_EQ(snapshot.glicko2_sequence(), 40u);
  absl::StatusOr<std::unique_ptr<LivePool>> restored = LivePool::FromSnapshot(snapshot, config);
  ASSERT_THAT(restored, IsOk());
  EXPECT_EQ(Bytes((*restored)->ToSnapshot()), Bytes(snapshot));
  for (int i = 40; i < 80; ++i) {
    const auto expected = ApplyAt(*whole, stream[i].first, absl::StrCat("g", i), stream[i].second);
    const auto got = ApplyAt(**restored, stream[i].first, absl::StrCat("g", i), stream[i].second);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t m = 0; m < got.size(); ++m) EXPECT_EQ(Bytes(got[m]), Bytes(expected[m])) << i;
  }
  EXPECT_EQ(Bytes((*restored)->ToSnapshot()), Bytes(whole->ToSnapshot()));
  EXPECT_EQ(Bytes((*restored)->Leaderboard(ratings::Model::kGlicko2)),
            Bytes(whole->Leaderboard(ratings::Model::kGlicko2)));

  // A snapshot without the model does not restore into a pool that keeps it, and a torn
  // glicko2 column is refused with the pool's name.
  LivePoolConfig without = config;
  without.options.glicko2 = false;
  std::unique_ptr<LivePool> plain = *LivePool::Create("p", without);
  ApplyAt(*plain, {"a", "b"}, "g", kT0);
  EXPECT_THAT(LivePool::FromSnapshot(plain->ToSnapshot(), config).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has no glicko2 model")));
  v1::PoolSnapshot torn = snapshot;
  torn.mutable_glicko2()->mutable_last_nanos()->RemoveLast();
  EXPECT_THAT(LivePool::FromSnapshot(torn, config).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pool 'p': glicko2: 14")));
}

}  // namespace
}  // namespace ratingd
