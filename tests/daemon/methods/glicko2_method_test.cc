// `ratingctl rate --method glicko2` (daemon/methods/online_methods.h): the report's fields
// from the model, the provisional rule, and the parameter errors. Expected ratings come from
// an independent Python implementation of [G2]'s steps (step 5 by bisection):
//   two new players (1500, 350, 0.06), one win: 1662.3108939063 / 1337.6891060937,
//   RD 290.3189637180, σ 0.0599996754; the winner's RD two days later, grown by
//   √(φ² + 2σ²): 290.6929291128.
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/run_rate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

ratings::io::ResultRecord Win(const std::string& winner, const std::string& loser,
                              absl::Time time) {
  ratings::io::ResultRecord record;
  record.pool = "p";
  record.game_id = winner + loser;
  record.result.standings = {{winner, 1, std::nullopt}, {loser, 2, std::nullopt}};
  record.event_time = time;
  return record;
}

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);  // 2023-11-14T22:13:20Z

TEST(Glicko2MethodTest, EntriesCarryTheModelsFields) {
  const std::vector<ratings::io::ResultRecord> records = {Win("a", "b", kT0),
                                                          Win("c", "d", kT0 + absl::Hours(48))};
  auto report = RateRecords({.method = "glicko2"}, records, 0);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->method(), "glicko2");
  EXPECT_EQ(report->agents(), 4u);
  EXPECT_EQ(report->results(), 2u);
  ASSERT_EQ(report->ranking_size(), 4);
  // a and c have bit-identical ratings (the same update from the same state): by name.
  const v1::RankedAgent& a = report->ranking(0);
  EXPECT_EQ(a.agent(), "a");
  EXPECT_EQ(report->ranking(1).agent(), "c");
  EXPECT_EQ(report->ranking(1).rating(), a.rating());
  EXPECT_NEAR(a.rating(), 1662.3108939063, 1e-6);
  EXPECT_NEAR(a.rd(), 290.6929291128, 1e-6);                   // grown to the latest event time
  EXPECT_NEAR(report->ranking(1).rd(), 290.3189637180, 1e-6);  // c played at the latest
  EXPECT_NEAR(a.volatility(), 0.0599996754, 1e-9);
  EXPECT_NEAR(report->ranking(3).rating(), 1337.6891060937, 1e-6);
  EXPECT_DOUBLE_EQ(a.ci_low(), a.rating() - 1.96 * a.rd());
  EXPECT_DOUBLE_EQ(a.ci_high(), a.rating() + 1.96 * a.rd());
  // Every interval overlaps every other: ranks 1 to 4 for all.
  for (const v1::RankedAgent& e : report->ranking()) {
    EXPECT_EQ(e.rank_low(), 1u) << e.agent();
    EXPECT_EQ(e.rank_high(), 4u) << e.agent();
    EXPECT_EQ(e.games(), 1u);
    EXPECT_TRUE(e.provisional()) << e.agent();
  }
  const std::string json = *DeterministicJson(*report);
  EXPECT_THAT(json, HasSubstr(R"("last_played":"2023-11-14T22:13:20Z")"));
  EXPECT_THAT(json, HasSubstr(R"("latest_event_time":"2023-11-16T22:13:20Z")"));
  EXPECT_THAT(json, HasSubstr(R"("params":{"initial":1500,"period":"24h","rd":350,)"
                              R"("tau":0.5,"volatility":0.06})"));
}

// Provisional: rd above --provisional-rd, or fewer results than --provisional-games.
TEST(Glicko2MethodTest, ProvisionalByDeviationOrGames) {
  const std::vector<ratings::io::ResultRecord> records = {Win("a", "b", kT0)};
  auto report =
      RateRecords({.method = "glicko2", .provisional_games = 1, .provisional_rd = 300}, records, 0);
  ASSERT_THAT(report, IsOk());
  EXPECT_FALSE(report->ranking(0).provisional());  // rd 290.3 <= 300, 1 game >= 1
  report =
      RateRecords({.method = "glicko2", .provisional_games = 2, .provisional_rd = 300}, records, 0);
  EXPECT_TRUE(report->ranking(0).provisional());
  report =
      RateRecords({.method = "glicko2", .provisional_games = 1, .provisional_rd = 290}, records, 0);
  EXPECT_TRUE(report->ranking(0).provisional());
}

// No event times: nothing grows, no last_played, no latest_event_time.
TEST(Glicko2MethodTest, WithoutEventTimes) {
  std::vector<ratings::io::ResultRecord> records = {Win("a", "b", kT0)};
  records[0].event_time.reset();
  auto report = RateRecords({.method = "glicko2"}, records, 0);
  ASSERT_THAT(report, IsOk());
  EXPECT_FALSE(report->ranking(0).has_last_played());
  EXPECT_FALSE(report->extra().fields().contains("latest_event_time"));
  EXPECT_NEAR(report->ranking(0).rd(), 290.3189637180, 1e-6);
}

TEST(Glicko2MethodTest, ParameterErrorsNameTheParameter) {
  EXPECT_THAT(RateRecords({.method = "glicko2", .params = {"period=soon"}}, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--param period (glicko2): 'soon' is not a duration (e.g. 24h, 90m, 0)"));
  EXPECT_THAT(RateRecords({.method = "glicko2", .params = {"tau=0"}}, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("glicko2: tau must be finite and > 0, got 0")));
  EXPECT_THAT(RateRecords({.method = "glicko2", .params = {"period=-1h"}}, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("period must be")));
  EXPECT_THAT(RateRecords({.method = "glicko2", .params = {"rd=-1"}}, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rd must be")));
  // The live replicas are elo's, sco's and ml's; glicko2 has its own deviation.
  EXPECT_THAT(
      RunRate({.method = "glicko2", .input = "/nonexistent.jsonl", .bootstrap_replicas = 16}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("--bootstrap-replicas: only the online models")));
}

}  // namespace
}  // namespace ratingd
