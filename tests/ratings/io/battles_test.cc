// ParseBattles and the battles formats (docs/CONTRACTS.md §2.4; the CSV reader:
// battles_csv_test.cc). Expected records by hand from
// the contract: winner model_a -> ranks 1/2, model_b -> 2/1, a tie -> 1/1; score s -> s and
// -s; game id "<file name>:<line>"; task = question_id, else task.
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/read_results.h"
#include "tests/ratings/io/expect_battle.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// --- JSONL ---

TEST(BattlesTest, EveryWinnerKind) {
  const std::string content = R"({"model_a":"gpt-4","model_b":"vicuna","winner":"model_a"})"
                              "\n"
                              R"({"model_a":"gpt-4","model_b":"vicuna","winner":"model_b"})"
                              "\n"
                              R"({"model_a":"gpt-4","model_b":"vicuna","winner":"tie"})"
                              "\n"
                              R"j({"model_a":"gpt-4","model_b":"vicuna","winner":"tie (bothbad)"})j"
                              "\n";
  absl::StatusOr<ReadOutput> out = ParseBattles(content, "dir/arena.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 4u);
  EXPECT_EQ(out->skipped_votes, 0);
  ExpectBattle(out->records[0], "gpt-4", 1, "vicuna", 2);
  ExpectBattle(out->records[1], "gpt-4", 2, "vicuna", 1);
  ExpectBattle(out->records[2], "gpt-4", 1, "vicuna", 1);
  ExpectBattle(out->records[3], "gpt-4", 1, "vicuna", 1);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const ResultRecord& r = out->records[i];
    EXPECT_EQ(r.line, i + 1);
    // The base name of the file, not its directory.
    EXPECT_EQ(r.game_id, absl::StrCat("arena.jsonl:", i + 1));
    EXPECT_EQ(r.task, "");
    EXPECT_FALSE(r.result.standings[0].score.has_value());
    EXPECT_FALSE(r.result.standings[1].score.has_value());
  }
}

TEST(BattlesTest, ScoreBecomesOppositeScores) {
  const std::string content = R"({"model_a":"a","model_b":"b","winner":"model_a","score":0.75})"
                              "\n"
                              R"({"model_a":"a","model_b":"b","winner":"model_b","score":-1})"
                              "\n"
                              R"({"model_a":"a","model_b":"b","winner":"tie","score":0})"
                              "\n";
  absl::StatusOr<ReadOutput> out = ParseBattles(content, "s.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 3u);
  EXPECT_EQ(out->records[0].result.standings[0].score, 0.75);
  EXPECT_EQ(out->records[0].result.standings[1].score, -0.75);
  EXPECT_EQ(out->records[1].result.standings[0].score, -1.0);
  EXPECT_EQ(out->records[1].result.standings[1].score, 1.0);
  EXPECT_EQ(out->records[2].result.standings[0].score, 0.0);
  EXPECT_EQ(out->records[2].result.standings[1].score, 0.0);
  ExpectBattle(out->records[1], "a", 2, "b", 1);
}

TEST(BattlesTest, TaskIsQuestionIdElseTask) {
  const std::string content =
      R"({"model_a":"a","model_b":"b","winner":"model_a","question_id":"q1","task":"t1"})"
      "\n"
      R"({"model_a":"a","model_b":"b","winner":"model_a","task":"t2"})"
      "\n"
      R"({"model_a":"a","model_b":"b","winner":"model_a","question_id":12345})"
      "\n"
      R"({"model_a":"a","model_b":"b","winner":"model_a","task":-7})"
      "\n"
      R"({"model_a":"a","model_b":"b","winner":"model_a","question_id":null,"task":"t5"})"
      "\n";
  absl::StatusOr<ReadOutput> out = ParseBattles(content, "t.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 5u);
  EXPECT_EQ(out->records[0].task, "q1");
  EXPECT_EQ(out->records[1].task, "t2");
  EXPECT_EQ(out->records[2].task, "12345");
  EXPECT_EQ(out->records[3].task, "-7");
  EXPECT_EQ(out->records[4].task, "t5");  // null is absent
}

TEST(BattlesTest, UnknownFieldsOfAnyTypeAndJudgeTstampIgnored) {
  // An LMArena-style line: nested conversations, a judge, a timestamp, booleans.
  const std::string content =
      R"({"model_a":"a","model_b":"b","winner":"model_b","judge":"arena_user_42",)"
      R"("tstamp":1682351591.1,"conversation_a":[{"role":"user","content":"hi"}],)"
      R"("openai_moderation":{"flagged":false,"categories":{"x":[1,2,{"y":null}]}},)"
      R"("anony":true,"language":"English","turn":1})";
  absl::StatusOr<ReadOutput> out = ParseBattles(content, "u.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  ExpectBattle(out->records[0], "a", 2, "b", 1);
  // tstamp, a number of seconds, is the event time to the microsecond (the double 1682351591.1
  // parses to is 1682351591.099999904632568359375, exact in Python's Decimal).
  EXPECT_EQ(out->records[0].event_time,
            absl::FromUnixSeconds(1682351591) + absl::Milliseconds(100));
  // judge may be any JSON value, and tstamp too: a tstamp that is not a number is not read.
  out = ParseBattles(R"({"model_a":"a","model_b":"b","winner":"tie","judge":{"id":3},)"
                     R"("tstamp":"2024-01-01"})",
                     "u.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_FALSE(out->records[0].event_time.has_value());
}

// A numeric tstamp outside the years 1 to 9999 (what a google.protobuf.Timestamp holds):
// refused, with the file, the line and the value.
TEST(BattlesTest, TstampOutsideTheTimestampRange) {
  EXPECT_THAT(ParseBattles("\n"
                           R"({"model_a":"a","model_b":"b","winner":"tie","tstamp":1e12})",
                           "t.jsonl", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.jsonl:2: tstamp 1e+12 is not a time in seconds since the Unix epoch "
                       "from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z"));
  absl::StatusOr<ReadOutput> out =
      ParseBattles(R"({"model_a":"a","model_b":"b","winner":"tie","tstamp":-62135596800})",
                   "t.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->records[0].event_time,
            absl::FromCivil(absl::CivilSecond(1, 1, 1, 0, 0, 0), absl::UTCTimeZone()));
}

// JSON allows integers of any length; an unread field may hold one beyond 64 bits, and a
// question_id beyond 2^53 is refused with its own message, not as malformed JSON.
TEST(BattlesTest, IntegersBeyondSixtyFourBits) {
  absl::StatusOr<ReadOutput> out = ParseBattles(
      R"({"model_a":"a","model_b":"b","winner":"model_a","n":123456789012345678901234567890,)"
      R"("meta":[-99999999999999999999999]})",
      "u.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  ExpectBattle(out->records[0], "a", 1, "b", 2);
  EXPECT_THAT(
      ParseBattles(
          R"({"model_a":"a","model_b":"b","winner":"tie","question_id":123456789012345678901234})",
          "u.jsonl", ResultLimits()),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("u.jsonl:1: question_id 1.23457e+23 is an integer beyond 2^53")));
  // Still malformed: a number that is not one.
  EXPECT_THAT(ParseBattles(R"({"model_a":"a","model_b":"b","winner":"tie","x":1.2.3})", "u.jsonl",
                           ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("invalid battle JSON")));
}

// A file of more than 1 MiB is parsed in two halves on two threads: records, line numbers
// (blank lines counted) and game ids must be those of one pass, and the error reported the
// first in file order.
TEST(BattlesTest, LargeFilesReadAsInOnePass) {
  std::string content;
  const int kLines = 30000;  // about 2 MB
  for (int i = 1; i <= kLines; ++i) {
    if (i % 1000 == 0) {
      content += "\n";  // a blank line every 1000
      continue;
    }
    absl::StrAppend(&content, R"({"model_a":"m)", i % 7, R"(","model_b":"x","winner":")",
                    i % 2 == 0 ? "model_a" : "tie", R"(","question_id":")", i,
                    R"(","conversation":"padding padding padding"})", "\n");
  }
  ASSERT_GT(content.size(), size_t{1} << 20);
  absl::StatusOr<ReadOutput> out = ParseBattles(content, "dir/big.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), static_cast<size_t>(kLines - kLines / 1000));
  int64_t expected_line = 0;
  for (const ResultRecord& r : out->records) {
    ++expected_line;
    if (expected_line % 1000 == 0) ++expected_line;
    ASSERT_EQ(r.line, expected_line);
    ASSERT_EQ(r.game_id, absl::StrCat("big.jsonl:", expected_line));
    ASSERT_EQ(r.task, absl::StrCat(expected_line));
    ASSERT_EQ(r.result.standings[0].agent, absl::StrCat("m", expected_line % 7));
  }
  // Errors near the end, and in both halves: the first in file order is reported.
  std::string late = content;
  late.replace(late.rfind("\"x\""), 3, "\"m4\"");  // line 29999: model_b = model_a
  EXPECT_THAT(ParseBattles(late, "big.jsonl", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("big.jsonl:29999: model_a and model_b are both 'm4'")));
  std::string both = late;
  both.replace(both.find("\"tie\""), 5, "\"Tie\"");  // line 1
  EXPECT_THAT(
      ParseBattles(both, "big.jsonl", ResultLimits()),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("big.jsonl:1: unknown winner")));
}

TEST(BattlesTest, BlankLinesSkippedAndLineNumbersKept) {
  const std::string content =
      "\n  \t\r\n"
      R"({"model_a":"a","model_b":"b","winner":"model_a"})"
      "\r\n\n"
      R"({"model_a":"c","model_b":"d","winner":"model_b"})";
  absl::StatusOr<ReadOutput> out = ParseBattles(content, "b.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(out->records[0].line, 3);
  EXPECT_EQ(out->records[0].game_id, "b.jsonl:3");
  EXPECT_EQ(out->records[1].line, 5);
  EXPECT_EQ(out->records[1].game_id, "b.jsonl:5");
  ExpectBattle(out->records[1], "c", 2, "d", 1);
}

TEST(BattlesTest, EmptyContentHasNoRecords) {
  absl::StatusOr<ReadOutput> out = ParseBattles("", "e.jsonl", ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_TRUE(out->records.empty());
}

// Each bad line, after one good line, so the line number is 2.
TEST(BattlesTest, BadLinesNameFileAndLine) {
  const std::string good = R"({"model_a":"a","model_b":"b","winner":"model_a"})";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"model_a":"a","model_b":"b","winner":"model_c"})",
       "bad.jsonl:2: unknown winner 'model_c'; expected model_a, model_b, tie or tie (bothbad)"},
      {R"({"model_a":"a","model_b":"b","winner":"Tie"})",
       "bad.jsonl:2: unknown winner 'Tie'; expected model_a, model_b, tie or tie (bothbad)"},
      {R"({"model_b":"b","winner":"tie"})", "bad.jsonl:2: missing model_a"},
      {R"({"model_a":"a","winner":"tie"})", "bad.jsonl:2: missing model_b"},
      {R"({"model_a":"a","model_b":null,"winner":"tie"})", "bad.jsonl:2: missing model_b"},
      {R"({"model_a":"a","model_b":"b"})", "bad.jsonl:2: missing winner"},
      {R"({"model_a":"a","model_b":"a","winner":"tie"})",
       "bad.jsonl:2: model_a and model_b are both 'a'"},
      {R"({"model_a":"a","model_b":"b","winner":"model_a","score":1.5})",
       "bad.jsonl:2: score 1.5 is outside [-1, 1]"},
      {R"({"model_a":"a","model_b":"b","winner":"model_b","score":-1.01})",
       "bad.jsonl:2: score -1.01 is outside [-1, 1]"},
      {R"({"model_a":"a","model_b":"b","winner":"model_a","score":-0.5})",
       "bad.jsonl:2: score -0.5 contradicts winner 'model_a' (which needs a score > 0)"},
      {R"({"model_a":"a","model_b":"b","winner":"model_a","score":0})",
       "bad.jsonl:2: score 0 contradicts winner 'model_a' (which needs a score > 0)"},
      {R"({"model_a":"a","model_b":"b","winner":"model_b","score":0.25})",
       "bad.jsonl:2: score 0.25 contradicts winner 'model_b' (which needs a score < 0)"},
      {R"({"model_a":"a","model_b":"b","winner":"tie","score":0.1})",
       "bad.jsonl:2: score 0.1 contradicts winner 'tie' (which needs a score 0)"},
      {R"j({"model_a":"a","model_b":"b","winner":"tie (bothbad)","score":-0.1})j",
       "bad.jsonl:2: score -0.1 contradicts winner 'tie (bothbad)' (which needs a score 0)"},
      {R"({"model_a":1,"model_b":"b","winner":"tie"})",
       "bad.jsonl:2: model_a must be a string, not a number"},
      {R"({"model_a":"a","model_b":["b"],"winner":"tie"})",
       "bad.jsonl:2: model_b must be a string, not an array"},
      {R"({"model_a":"a","model_b":"b","winner":true})",
       "bad.jsonl:2: winner must be a string, not a boolean"},
      {R"({"model_a":"a","model_b":"b","winner":"tie","score":"0"})",
       "bad.jsonl:2: score must be a number, not a string"},
      {R"({"model_a":"a","model_b":"b","winner":"tie","question_id":1.5})",
       "bad.jsonl:2: question_id 1.5 must be a string or an integer"},
      {R"({"model_a":"a","model_b":"b","winner":"tie","task":{"id":1}})",
       "bad.jsonl:2: task must be a string or an integer, not an object"},
      {R"({"model_a":"a","model_b":"b","winner":"tie","question_id":1e20})",
       "bad.jsonl:2: question_id 1e+20 is an integer beyond 2^53, not kept exactly; write it "
       "as a string"},
      {R"({"model_a":"","model_b":"b","winner":"tie"})",
       "bad.jsonl:2: standings[0]: empty agent id"},
  };
  for (const auto& [line, message] : cases) {
    SCOPED_TRACE(line);
    EXPECT_THAT(ParseBattles(absl::StrCat(good, "\n", line, "\n"), "dir/bad.jsonl", ResultLimits()),
                StatusIs(absl::StatusCode::kInvalidArgument, absl::StrCat("dir/", message)));
  }
}

TEST(BattlesTest, NotAJsonObjectRejected) {
  for (const char* line : {R"(["a","b","model_a"])", R"("model_a")", "42", "null",
                           R"({"model_a":"a",)", "model_a,model_b,winner"}) {
    SCOPED_TRACE(line);
    EXPECT_THAT(ParseBattles(line, "n.jsonl", ResultLimits()),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         StartsWith("n.jsonl:1: invalid battle JSON (a line must be one JSON "
                                    "object): ")));
  }
}

TEST(BattlesTest, IdsPassTheLimits) {
  ResultLimits limits;
  limits.max_agent_id_bytes = 3;
  EXPECT_THAT(ParseBattles(R"({"model_a":"abcd","model_b":"b","winner":"tie"})", "l.jsonl", limits),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "l.jsonl:1: standings[0]: agent id of 4 bytes exceeds the limit of 3"));
}

// --- CSV ---

TEST(BattlesFormatTest, ParseAndInferFormat) {
  EXPECT_EQ(*ParseFormat("battles"), Format::kBattles);
  EXPECT_EQ(*ParseFormat("battles-csv"), Format::kBattlesCsv);
  EXPECT_EQ(*InferFormat("dir/arena.csv"), Format::kBattlesCsv);
  EXPECT_EQ(*InferFormat("ARENA.CSV"), Format::kBattlesCsv);
  // .jsonl stays GameResult JSONL: battles in JSONL need --format battles.
  EXPECT_EQ(*InferFormat("arena.jsonl"), Format::kJsonl);
}

TEST(BattlesFormatTest, BattlesPicksCsvByExtension) {
  const std::string csv = "model_a,model_b,winner\na,b,model_b\n";
  const std::string jsonl = R"({"model_a":"a","model_b":"b","winner":"model_b"})";
  for (const char* name : {"x.csv", "dir/X.CSV"}) {
    SCOPED_TRACE(name);
    absl::StatusOr<ReadOutput> out = ParseResults(csv, name, Format::kBattles, ResultLimits());
    ASSERT_THAT(out, IsOk());
    ASSERT_EQ(out->records.size(), 1u);
    ExpectBattle(out->records[0], "a", 2, "b", 1);
    EXPECT_EQ(out->records[0].line, 2);
  }
  // Any other name is JSONL; battles-csv is CSV whatever the name.
  absl::StatusOr<ReadOutput> out = ParseResults(jsonl, "x.json", Format::kBattles, ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  EXPECT_EQ(out->records[0].game_id, "x.json:1");
  out = ParseResults(csv, "x.txt", Format::kBattlesCsv, ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->records.size(), 1u);
  EXPECT_THAT(ParseResults(csv, "x.jsonl", Format::kBattles, ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("x.jsonl:1: invalid")));
}

TEST(BattlesFormatTest, ReadsTheTestDataFiles) {
  // tests/data/battles/small.jsonl and small.csv hold the same six battles.
  const std::string dir = RATINGD_TEST_DATA "/battles/";
  absl::StatusOr<ReadOutput> jsonl =
      ReadResultsFile(absl::StrCat(dir, "small.jsonl"), Format::kBattles, ResultLimits());
  absl::StatusOr<ReadOutput> csv =
      ReadResultsFile(absl::StrCat(dir, "small.csv"), Format::kBattles, ResultLimits());
  ASSERT_THAT(jsonl, IsOk());
  ASSERT_THAT(csv, IsOk());
  ASSERT_EQ(jsonl->records.size(), 6u);
  ASSERT_EQ(csv->records.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    const Result& a = jsonl->records[i].result;
    const Result& b = csv->records[i].result;
    for (size_t s = 0; s < 2; ++s) {
      EXPECT_EQ(a.standings[s].agent, b.standings[s].agent);
      EXPECT_EQ(a.standings[s].rank, b.standings[s].rank);
      EXPECT_EQ(a.standings[s].score, b.standings[s].score);
    }
    EXPECT_EQ(jsonl->records[i].task, csv->records[i].task);
    EXPECT_EQ(jsonl->records[i].game_id, absl::StrCat("small.jsonl:", i + 1));
    EXPECT_EQ(csv->records[i].game_id, absl::StrCat("small.csv:", i + 2));
  }
  // Line 1: gpt-4 beats vicuna-13b on question q1 (by hand from the file).
  ExpectBattle(jsonl->records[0], "gpt-4", 1, "vicuna-13b", 2);
  EXPECT_EQ(jsonl->records[0].task, "q1");
}

}  // namespace
}  // namespace ratings::io
