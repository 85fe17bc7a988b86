// `--inactive-after D` (docs/MODELS.md §12) in `ratingctl rate` and ratingd's leaderboards:
// who is left out, the ranks and rank intervals of the others, and `--include-inactive`.
// Expected by hand from the event times: a beats b at T0, c beats d two days later; with D
// = 1 day a and b are inactive, with D = 2 days (exactly their age) they are not.
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "daemon/methods/run_rate.h"
#include "daemon/pool_report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);

std::vector<ratings::io::ResultRecord> TwoDaysApart() {
  std::vector<ratings::io::ResultRecord> records(2);
  records[0].pool = records[1].pool = "p";
  records[0].result.standings = {{"a", 1, std::nullopt}, {"b", 2, std::nullopt}};
  records[0].event_time = kT0;
  records[1].result.standings = {{"c", 1, std::nullopt}, {"d", 2, std::nullopt}};
  records[1].event_time = kT0 + absl::Hours(48);
  return records;
}

std::vector<std::string> Agents(const v1::RatingReport& report) {
  std::vector<std::string> out;
  for (const v1::RankedAgent& e : report.ranking()) out.push_back(e.agent());
  return out;
}

TEST(InactivityTest, InactiveAgentsLeaveTheRankingAndItsRankIntervals) {
  for (const std::string method : {"elo", "sco", "glicko2", "ml"}) {
    SCOPED_TRACE(method);
    RateConfig config{.method = method,
                      .bootstrap_replicas = method == "glicko2" ? 0u : 16u,
                      .inactive_after = absl::Hours(24)};
    absl::StatusOr<v1::RatingReport> report = RateRecords(config, TwoDaysApart(), 0);
    ASSERT_THAT(report, IsOk());
    EXPECT_THAT(Agents(*report), ::testing::ElementsAre("c", "d"));
    EXPECT_EQ(report->ranking(0).rank(), 1u);
    EXPECT_EQ(report->ranking(1).rank(), 2u);
    EXPECT_EQ(report->agents(), 4u);  // the pool's agents: their state is kept
    if (method != "ml") {
      EXPECT_GE(report->ranking(1).rank_high(), 1u);
      EXPECT_LE(report->ranking(1).rank_high(), 2u);  // among the two active agents
    } else {
      EXPECT_THAT(report->extra().fields().at("lottery").struct_value().fields(),
                  ::testing::SizeIs(2));
    }
    config.include_inactive = true;
    report = RateRecords(config, TwoDaysApart(), 0);
    ASSERT_THAT(report, IsOk());
    EXPECT_THAT(Agents(*report), ::testing::ElementsAre("c", "d", "a", "b"));
    EXPECT_TRUE(report->ranking(2).inactive());
    EXPECT_EQ(report->ranking(2).rank(), 0u);
    EXPECT_FALSE(report->ranking(2).has_rank_low());
    EXPECT_FALSE(report->ranking(0).has_inactive());
    config.include_inactive = false;
    config.inactive_after = absl::Hours(48);  // exactly their age: still active
    report = RateRecords(config, TwoDaysApart(), 0);
    ASSERT_THAT(report, IsOk());
    EXPECT_EQ(report->ranking_size(), 4);
  }
}

TEST(InactivityTest, OnlyOnlineModelsTakeItAndNeverANegativeDuration) {
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = "x", .inactive_after = absl::Hours(1)}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--inactive-after: only the online models elo, sco, ml and glicko2 take "
                       "it, not 'elo-bt'"));
  EXPECT_THAT(RunRate({.method = "elo", .input = "x", .inactive_after = -absl::Hours(1)}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(">= 0, got -1h")));
}

}  // namespace
}  // namespace ratingd
