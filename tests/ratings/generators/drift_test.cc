#include "ratings/generators/drift.h"

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

TEST(DriftTest, SameSeedSameStreamAndTimesMoveForward) {
  const DriftOptions options{.results = 3000, .seed = 7};
  auto a = GenerateDrift(options);
  auto b = GenerateDrift(options);
  ASSERT_THAT(a, IsOk());
  ASSERT_EQ(a->games.size(), 3000u);
  ASSERT_EQ(a->names.size(), 40u);
  EXPECT_EQ(a->names[0], "agent-1");
  for (size_t i = 0; i < a->games.size(); ++i) {
    EXPECT_EQ(a->games[i].winner, b->games[i].winner);
    EXPECT_EQ(a->games[i].time, b->games[i].time);
    EXPECT_NE(a->games[i].winner, a->games[i].loser);
    EXPECT_GT(a->games[i].time, i == 0 ? options.start : a->games[i - 1].time);
  }
  EXPECT_EQ(a->skills, b->skills);
  // 20 results a day on average: 3,000 take about 150 days (the sum of 3,000 exponential
  // gaps has a relative sd of 1/√3000 ≈ 1.8 %; bounds at 5 sd).
  const double days = absl::ToDoubleHours(a->games.back().time - options.start) / 24;
  EXPECT_NEAR(days, 150.0, 150.0 * 5 / std::sqrt(3000.0));
  auto other = GenerateDrift({.results = 3000, .seed = 8});
  EXPECT_NE(other->skills, a->skills);
}

// walk 0: skills never move, whatever the length of the stream; churn 0: only the first
// `active` agents ever play; churn 1: waiting agents come in.
TEST(DriftTest, WalkAndChurnDoWhatTheySay) {
  auto short_stream = GenerateDrift({.results = 10, .walk = 0, .churn = 0, .seed = 3});
  auto long_stream = GenerateDrift({.results = 5000, .walk = 0, .churn = 0, .seed = 3});
  EXPECT_EQ(short_stream->skills, long_stream->skills);
  std::set<AgentId> played;
  for (const DriftGame& g : long_stream->games) played.insert({g.winner, g.loser});
  EXPECT_EQ(played.size(), 10u);
  EXPECT_LT(*played.rbegin(), 10u);
  auto churned = GenerateDrift({.results = 5000, .churn = 1, .seed = 3});
  played.clear();
  for (const DriftGame& g : churned->games) played.insert({g.winner, g.loser});
  EXPECT_EQ(played.size(), 40u);
}

// Two agents, fixed skills: the stronger wins with the logistic probability of the gap
// (from the formula, not the generator), within 5 sd of the binomial over 20,000 games.
TEST(DriftTest, WinsFollowTheLogisticOfTheSkillGap) {
  auto s = GenerateDrift(
      {.agents = 2, .active = 2, .results = 20000, .walk = 0, .skill_std = 200, .seed = 11});
  ASSERT_THAT(s, IsOk());
  const double p = 1 / (1 + std::pow(10.0, (s->skills[1] - s->skills[0]) / 400));
  int64_t first = 0;
  for (const DriftGame& g : s->games) first += g.winner == 0;
  const double sd = std::sqrt(20000 * p * (1 - p));
  EXPECT_NEAR(static_cast<double>(first), 20000 * p, 5 * sd);
}

TEST(DriftTest, BadOptionsAreNamed) {
  EXPECT_THAT(GenerateDrift({.agents = 1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("agents must be >= 2")));
  EXPECT_THAT(GenerateDrift({.agents = 5, .active = 6}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("active must be in")));
  EXPECT_THAT(GenerateDrift({.per_day = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("per_day")));
  EXPECT_THAT(GenerateDrift({.walk = -1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("walk")));
  EXPECT_THAT(GenerateDrift({.churn = 2}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("churn must be in [0, 1]")));
}

}  // namespace
}  // namespace ratings
