#include "ratings/result.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

Result TwoPlayer() { return Result{{{"alice", 1, std::nullopt}, {"bob", 2, std::nullopt}}, 1.0}; }

TEST(ResultTest, AcceptsAValidResult) {
  EXPECT_THAT(ValidateResult(TwoPlayer(), {}), IsOk());
  Result tie = TwoPlayer();
  tie.standings[1].rank = 1;
  tie.standings[0].score = 3.5;
  EXPECT_THAT(ValidateResult(tie, {}), IsOk());
}

// Every invalid class of docs/CONTRACTS.md §1 that a Result can express, with the words of its
// message.
TEST(ResultTest, EveryValidationErrorNamesTheProblem) {
  const double kNan = std::numeric_limits<double>::quiet_NaN();
  const double kInf = std::numeric_limits<double>::infinity();
  struct Case {
    std::string name;
    Result result;
    std::string message;
  };
  std::vector<Case> cases;
  cases.push_back({"no standings", Result{{}, 1.0}, "fewer than 2 standings (0)"});
  cases.push_back({"one standing", Result{{{"a", 1, {}}}, 1.0}, "fewer than 2 standings (1)"});
  {
    Result r = TwoPlayer();
    for (int i = 0; i < 3; ++i) r.standings.push_back({absl::StrCat("x", i), 3, {}});
    cases.push_back({"too many", r, "too many standings (5 > limit 4)"});
  }
  for (double w : {0.0, -1.0, kNan, kInf}) {
    Result r = TwoPlayer();
    r.weight = w;
    cases.push_back({"weight", r, "is not a finite number > 0"});
  }
  {
    Result r = TwoPlayer();
    r.weight = std::nextafter(1e6, 2e6);  // the limit itself is valid (LimitsAreInclusive)
    cases.push_back({"weight", r, "exceeds the limit of 1e+06"});
  }
  {
    Result r = TwoPlayer();
    r.standings[1].agent = "";
    cases.push_back({"empty id", r, "standings[1]: empty agent id"});
  }
  {
    Result r = TwoPlayer();
    r.standings[0].agent = std::string(9, 'x');
    cases.push_back({"long id", r, "standings[0]: agent id of 9 bytes exceeds the limit of 8"});
  }
  {
    Result r = TwoPlayer();
    r.standings[1].rank = 0;
    cases.push_back({"rank 0", r, "standings[1]: rank 0 for agent 'bob'; ranks start at 1"});
  }
  for (double s : {kNan, kInf, -kInf}) {
    Result r = TwoPlayer();
    r.standings[0].score = s;
    cases.push_back({"score", r, "standings[0]: non-finite score for agent 'alice'"});
  }
  {
    Result r = TwoPlayer();
    r.standings[1].agent = "alice";
    cases.push_back({"twice", r, "standings[1]: agent 'alice' appears twice"});
  }
  const ResultLimits limits{.max_standings = 4, .max_agent_id_bytes = 8};
  for (const Case& c : cases) {
    EXPECT_THAT(ValidateResult(c.result, limits),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)))
        << c.name;
  }
  // The same cases, classified for the daemon's DLQ reasons and metric labels.
  const std::map<std::string, std::string> reason = {{"no standings", "too_few_standings"},
                                                     {"one standing", "too_few_standings"},
                                                     {"too many", "too_many_standings"},
                                                     {"weight", "bad_weight"},
                                                     {"empty id", "empty_agent_id"},
                                                     {"long id", "agent_id_too_long"},
                                                     {"rank 0", "zero_rank"},
                                                     {"score", "bad_score"},
                                                     {"twice", "duplicate_agent"}};
  for (const Case& c : cases) {
    std::string message;
    EXPECT_EQ(ResultProblemName(CheckResult(c.result, limits, &message)), reason.at(c.name))
        << c.name;
    EXPECT_THAT(message, HasSubstr(c.message)) << c.name;
  }
  EXPECT_EQ(CheckResult(TwoPlayer(), limits, nullptr), ResultProblem::kNone);
}

// A repeated agent is found by pairs among a few standings and by a hash set among many
// (more than 16); either way the message names the first standing that repeats one before it.
TEST(ResultTest, RepeatedAgentIsNamedAtItsSecondStandingFewOrMany) {
  for (size_t k : {3, 40}) {
    Result r;
    for (size_t i = 0; i < k; ++i) {
      r.standings.push_back({absl::StrCat("a", i), static_cast<uint32_t>(i + 1), std::nullopt});
    }
    r.standings[k - 1].agent = "a1";
    EXPECT_THAT(
        ValidateResult(r, {}),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 HasSubstr(absl::StrCat("standings[", k - 1, "]: agent 'a1' appears twice"))))
        << k;
    r.standings[k - 1].agent = "other";
    EXPECT_THAT(ValidateResult(r, {}), IsOk()) << k;
  }
}

TEST(ResultTest, LimitsAreInclusive) {
  Result r = TwoPlayer();
  r.standings[0].agent = std::string(8, 'x');
  EXPECT_THAT(ValidateResult(r, {.max_standings = 2, .max_agent_id_bytes = 8}), IsOk());
  r.weight = kMaxWeight;
  EXPECT_THAT(ValidateResult(r, {}), IsOk());
}

}  // namespace
}  // namespace ratings
