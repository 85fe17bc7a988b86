#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/read_results.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kCamel[] =
    R"({"pool":"go","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})";
constexpr char kSnake[] =
    R"({"pool":"go","game_id":"g2","task":"t9","weight":0.5,)"
    R"("standings":[{"agent":"a","rank":2,"score":3.5},{"agent":"b","rank":1}]})";

TEST(JsonlTest, ParsesCamelAndSnakeCaseFields) {
  const std::string content = std::string(kCamel) + "\n" + kSnake + "\n";
  absl::StatusOr<ReadOutput> out = ParseJsonl(content, "r.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(out->skipped_votes, 0);

  const ResultRecord& first = out->records[0];
  EXPECT_EQ(first.pool, "go");
  EXPECT_EQ(first.game_id, "g1");
  EXPECT_EQ(first.task, "");
  EXPECT_EQ(first.line, 1);
  EXPECT_EQ(first.result.weight, 1.0);
  ASSERT_EQ(first.result.standings.size(), 2u);
  EXPECT_EQ(first.result.standings[0].agent, "a");
  EXPECT_EQ(first.result.standings[0].rank, 1u);

  const ResultRecord& second = out->records[1];
  EXPECT_EQ(second.game_id, "g2");
  EXPECT_EQ(second.task, "t9");
  EXPECT_EQ(second.line, 2);
  EXPECT_EQ(second.result.weight, 0.5);
  EXPECT_EQ(second.result.standings[0].score, 3.5);
  EXPECT_EQ(second.result.standings[0].rank, 2u);
  EXPECT_FALSE(second.result.standings[1].score.has_value());
}

TEST(JsonlTest, SkipsBlankLinesAndKeepsLineNumbers) {
  const std::string content = "\n   \t\n" + std::string(kCamel) + "\r\n\r\n" + kSnake;
  absl::StatusOr<ReadOutput> out = ParseJsonl(content, "r.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(out->records[0].line, 3);
  EXPECT_EQ(out->records[1].line, 5);
}

TEST(JsonlTest, EmptyContentHasNoRecords) {
  absl::StatusOr<ReadOutput> out = ParseJsonl("", "r.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_TRUE(out->records.empty());
}

TEST(JsonlTest, BadJsonNamesFileAndLine) {
  const std::string content = std::string(kCamel) + "\n{\"pool\": \n";
  EXPECT_THAT(ParseJsonl(content, "r.jsonl", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("r.jsonl:2: invalid GameResult JSON: ")));
}

TEST(JsonlTest, UnknownFieldRejected) {
  EXPECT_THAT(
      ParseJsonl(R"({"pool":"p","gameId":"g","winner":"a","standings":[]})", "u.jsonl",
                 ResultLimits()),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(StartsWith("u.jsonl:1: invalid GameResult JSON: "), HasSubstr("winner"))));
}

TEST(JsonlTest, RankZeroRejectedWithLineNumber) {
  const std::string content =
      std::string(kCamel) + "\n" +
      R"({"pool":"p","gameId":"g","standings":[{"agent":"a","rank":0},{"agent":"b","rank":1}]})";
  EXPECT_THAT(ParseJsonl(content, "r.jsonl", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "r.jsonl:2: standings[0]: rank 0 for agent 'a'; ranks start at 1"));
}

TEST(JsonlTest, WeightZeroRejected) {
  EXPECT_THAT(
      ParseJsonl(
          R"({"pool":"p","gameId":"g","weight":0,"standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})",
          "w.jsonl", ResultLimits()),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("w.jsonl:1: weight 0 ")));
}

TEST(JsonlTest, MissingPoolAndGameIdNameTheLine) {
  EXPECT_THAT(ParseJsonl(R"({"gameId":"g"})", "m.jsonl", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, "m.jsonl:1: missing pool"));
  EXPECT_THAT(ParseJsonl("\n"
                         R"({"pool":"p"})",
                         "m.jsonl", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, "m.jsonl:2: missing game_id"));
}

TEST(JsonlTest, WrongTypesRejected) {
  const char* const lines[] = {
      R"({"pool":1,"gameId":"g"})",
      R"({"pool":"p","gameId":"g","standings":"a"})",
      R"({"pool":"p","gameId":"g","standings":[{"agent":"a","rank":"first"}]})",
      R"({"pool":"p","gameId":"g","standings":[{"agent":"a","rank":-1}]})",
      R"({"pool":"p","gameId":"g","standings":[{"agent":"a","rank":1.5}]})",
      R"({"pool":"p","gameId":"g","weight":"heavy"})",
      R"(["p","g"])",
      R"("just a string")",
  };
  for (const char* line : lines) {
    SCOPED_TRACE(line);
    EXPECT_THAT(ParseJsonl(line, "t.jsonl", ResultLimits()),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         StartsWith("t.jsonl:1: invalid GameResult JSON: ")));
  }
}

TEST(JsonlTest, NonFiniteWeightFromJsonRejectedByValidation) {
  // protobuf's JSON form spells special doubles as strings; validation still rejects them.
  EXPECT_THAT(
      ParseJsonl(
          R"({"pool":"p","gameId":"g","weight":"NaN","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})",
          "n.jsonl", ResultLimits()),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(StartsWith("n.jsonl:1: weight "), HasSubstr("not a finite number"))));
}

TEST(JsonlTest, ParseResultsDispatchesToJsonl) {
  absl::StatusOr<ReadOutput> out = ParseResults(kCamel, "x", Format::kJsonl, ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->records.size(), 1u);
}

}  // namespace
}  // namespace ratings::io
