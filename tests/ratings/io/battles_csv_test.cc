// ParseBattlesCsv (docs/CONTRACTS.md §2.4): the battles fields as RFC 4180 CSV. Expected
// records by hand from the contract, as for the JSONL reader (battles_test.cc).
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

TEST(BattlesCsvTest, RowsBecomeBattles) {
  const std::string content =
      "question_id,model_a,model_b,winner,judge,tstamp\n"
      "q1,gpt-4,vicuna,model_a,u1,1682351591\n"
      "q2,gpt-4,vicuna,model_b,u2,1682351592\n"
      "q3,gpt-4,vicuna,tie,,\n"
      "q4,gpt-4,vicuna,tie (bothbad),u4,\n";
  absl::StatusOr<ReadOutput> out = ParseBattlesCsv(content, "/d/arena.csv", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 4u);
  ExpectBattle(out->records[0], "gpt-4", 1, "vicuna", 2);
  ExpectBattle(out->records[1], "gpt-4", 2, "vicuna", 1);
  ExpectBattle(out->records[2], "gpt-4", 1, "vicuna", 1);
  ExpectBattle(out->records[3], "gpt-4", 1, "vicuna", 1);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    // The header is line 1: row i is on line i + 2.
    EXPECT_EQ(out->records[i].line, i + 2);
    EXPECT_EQ(out->records[i].game_id, absl::StrCat("arena.csv:", i + 2));
    EXPECT_EQ(out->records[i].task, absl::StrCat("q", i + 1));
  }
  // tstamp, where there is one, is the event time.
  EXPECT_EQ(out->records[0].event_time, absl::FromUnixSeconds(1682351591));
  EXPECT_EQ(out->records[1].event_time, absl::FromUnixSeconds(1682351592));
  EXPECT_FALSE(out->records[2].event_time.has_value());
}

TEST(BattlesCsvTest, ScoreTaskAndEmptyFieldsAbsent) {
  const std::string content =
      "model_a,model_b,winner,score,question_id,task\n"
      "a,b,model_a,0.5,,t1\n"  // empty question_id: the task
      "a,b,model_b,,q2,t2\n"   // empty score: none
      "a,b,tie,0,,\n"          // no task at all
      "a,b,model_b,-1e-3,q4,\n";
  absl::StatusOr<ReadOutput> out = ParseBattlesCsv(content, "s.csv", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 4u);
  EXPECT_EQ(out->records[0].task, "t1");
  EXPECT_EQ(out->records[0].result.standings[0].score, 0.5);
  EXPECT_EQ(out->records[0].result.standings[1].score, -0.5);
  EXPECT_EQ(out->records[1].task, "q2");
  EXPECT_FALSE(out->records[1].result.standings[0].score.has_value());
  EXPECT_FALSE(out->records[1].result.standings[1].score.has_value());
  EXPECT_EQ(out->records[2].task, "");
  EXPECT_EQ(out->records[2].result.standings[0].score, 0.0);
  EXPECT_EQ(out->records[3].result.standings[0].score, -0.001);
  EXPECT_EQ(out->records[3].result.standings[1].score, 0.001);
}

TEST(BattlesCsvTest, QuotedFieldsWithCommasQuotesAndNewlines) {
  const std::string content =
      "model_a,model_b,winner,question_id,conversation\n"
      "\"llama, 13b\",\"the \"\"best\"\" one\",model_b,q1,\"line one\nline two\n\"\n"
      "\"a\",b,\"tie\",\"\",\"\"\n"
      "c,d,model_a,q3,x\n";
  absl::StatusOr<ReadOutput> out = ParseBattlesCsv(content, "q.csv", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 3u);
  ExpectBattle(out->records[0], "llama, 13b", 2, "the \"best\" one", 1);
  EXPECT_EQ(out->records[0].task, "q1");
  EXPECT_EQ(out->records[0].line, 2);
  // The first row spans lines 2-4: the next starts on line 5.
  ExpectBattle(out->records[1], "a", 1, "b", 1);
  EXPECT_EQ(out->records[1].task, "");  // a quoted empty field is empty too
  EXPECT_EQ(out->records[1].line, 5);
  EXPECT_EQ(out->records[1].game_id, "q.csv:5");
  EXPECT_EQ(out->records[2].line, 6);
}

TEST(BattlesCsvTest, CrLfBlankLinesBomAndNoFinalNewline) {
  const std::string content =
      "\xEF\xBB\xBF"
      "model_a,model_b,winner\r\n"
      "\r\n"
      "a,b,model_a\r\n"
      "\"x\r\ny\",b,model_b\r\n"
      "\n"
      "c,d,tie";
  absl::StatusOr<ReadOutput> out = ParseBattlesCsv(content, "c.csv", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 3u);
  ExpectBattle(out->records[0], "a", 1, "b", 2);
  EXPECT_EQ(out->records[0].line, 3);
  ExpectBattle(out->records[1], "x\r\ny", 2, "b", 1);  // quoted CRLF kept as written
  EXPECT_EQ(out->records[1].line, 4);
  ExpectBattle(out->records[2], "c", 1, "d", 1);
  EXPECT_EQ(out->records[2].line, 7);
}

TEST(BattlesCsvTest, UnknownAndUnnamedColumnsIgnored) {
  // pandas writes its index as a first column with an empty name.
  const std::string content =
      ",model_b,extra,winner,model_a,judge\n"
      "0,b,\"{\"\"nested\"\": [1, 2]}\",model_b,a,u\n";
  absl::StatusOr<ReadOutput> out = ParseBattlesCsv(content, "p.csv", ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  ExpectBattle(out->records[0], "a", 2, "b", 1);
}

TEST(BattlesCsvTest, EmptyContentHasNoRecords) {
  for (const char* content : {"", "\n\n", "model_a,model_b,winner\n"}) {
    SCOPED_TRACE(content);
    absl::StatusOr<ReadOutput> out = ParseBattlesCsv(content, "e.csv", ResultLimits());
    ASSERT_THAT(out, IsOk());
    EXPECT_TRUE(out->records.empty());
  }
}

TEST(BattlesCsvTest, HeaderErrors) {
  EXPECT_THAT(ParseBattlesCsv("model_a,model_b,score\na,b,1\n", "h.csv", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "h.csv:1: the header lacks column 'winner' (it needs model_a, model_b "
                       "and winner)"));
  EXPECT_THAT(ParseBattlesCsv("\nmodel_b,winner\n", "h.csv", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("h.csv:2: the header lacks column 'model_a'")));
  EXPECT_THAT(ParseBattlesCsv("model_a,model_b,winner,judge,model_b\n", "h.csv", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "h.csv:1: column 'model_b' appears twice in the header (columns 2 and 5)"));
  EXPECT_THAT(ParseBattlesCsv("x,x,model_a,model_b,winner\n", "h.csv", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "h.csv:1: column 'x' appears twice in the header (columns 1 and 2)"));
}

// Each bad row after a header and one good row, so it starts on line 3.
TEST(BattlesCsvTest, BadRowsNameFileAndLine) {
  const std::string head = "model_a,model_b,winner,score,question_id\na,b,model_a,,\n";
  const std::pair<std::string, std::string> cases[] = {
      {"a,b,model_c,,",
       "r.csv:3: unknown winner 'model_c'; expected model_a, model_b, tie or "
       "tie (bothbad)"},
      {"a,b, tie,,",
       "r.csv:3: unknown winner ' tie'; expected model_a, model_b, tie or "
       "tie (bothbad)"},
      {",b,tie,,", "r.csv:3: missing model_a"},
      {"a,,tie,,", "r.csv:3: missing model_b"},
      {"a,b,,,", "r.csv:3: missing winner"},
      {"a,a,model_a,,", "r.csv:3: model_a and model_b are both 'a'"},
      {"a,b,model_a,2,", "r.csv:3: score 2 is outside [-1, 1]"},
      {"a,b,model_a,nan,", "r.csv:3: score nan is outside [-1, 1]"},
      {"a,b,model_a,-0.5,",
       "r.csv:3: score -0.5 contradicts winner 'model_a' (which needs a "
       "score > 0)"},
      {"a,b,tie,0.5,", "r.csv:3: score 0.5 contradicts winner 'tie' (which needs a score 0)"},
      {"a,b,model_a,high,", "r.csv:3: score 'high' is not a number"},
      {"a,b,model_a,,,", "r.csv:3: malformed row: 6 fields, header has 5"},
      {"a,b,model_a", "r.csv:3: malformed row: 3 fields, header has 5"},
      {"a,b\"c,model_a,,", "r.csv:3: malformed row: '\"' inside an unquoted field"},
      {"\"a\"b,b,model_a,,", "r.csv:3: malformed row: text after the closing quote of a field"},
      {"\"a,b,model_a,,\nmore\n", "r.csv:3: malformed row: unterminated quoted field"},
  };
  for (const auto& [row, message] : cases) {
    SCOPED_TRACE(row);
    EXPECT_THAT(ParseBattlesCsv(absl::StrCat(head, row, "\n"), "r.csv", ResultLimits()),
                StatusIs(absl::StatusCode::kInvalidArgument, message));
  }
}

TEST(BattlesCsvTest, ErrorInMultilineRowNamesItsFirstLine) {
  const std::string content =
      "model_a,model_b,winner,note\n"
      "a,b,model_a,\"two\nlines\"\n"
      "a,b,model_x,\"three\nmore\nlines\"\n";
  EXPECT_THAT(ParseBattlesCsv(content, "m.csv", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("m.csv:4: unknown winner")));
}

// --- Formats and dispatch ---

}  // namespace
}  // namespace ratings::io
