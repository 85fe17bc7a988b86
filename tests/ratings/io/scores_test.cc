#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/read_results.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

const std::string kAtariDir = std::string(RATINGD_TEST_DATA) + "/atari";

absl::StatusOr<ReadOutput> Parse(std::string_view content) {
  return ParseScores(content, "t.txt", ResultLimits());
}

// The rank and score of `agent` in `result`; fails the test when absent.
const Standing& Find(const Result& result, std::string_view agent) {
  for (const Standing& s : result.standings) {
    if (s.agent == agent) return s;
  }
  ADD_FAILURE() << "no agent " << agent;
  static const Standing kNone;
  return kNone;
}

constexpr char kTable[] =
    "# a comment\n"
    "# game x y z\n"
    "pong 1,486.5 -3 911,091.0\n"
    "\n"
    "skiing -4,336.9±12.5 -17098.10+-0.5 -4336.9\n"
    "boxing 100±0 1e2 100.00\r\n"
    "   \n";

TEST(ScoresTest, ParsesSeparatorsPlusMinusTiesAndNegatives) {
  absl::StatusOr<ReadOutput> out = Parse(kTable);
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 3u);
  EXPECT_EQ(out->skipped_votes, 0);

  const ResultRecord& pong = out->records[0];
  EXPECT_EQ(pong.task, "pong");
  EXPECT_EQ(pong.line, 3);
  EXPECT_EQ(pong.pool, "");
  EXPECT_EQ(pong.game_id, "");
  EXPECT_EQ(pong.result.weight, 1.0);
  ASSERT_EQ(pong.result.standings.size(), 3u);
  EXPECT_EQ(pong.result.standings[0].agent, "x");  // in column order
  EXPECT_EQ(Find(pong.result, "x").score, 1486.5);
  EXPECT_EQ(Find(pong.result, "y").score, -3.0);
  EXPECT_EQ(Find(pong.result, "z").score, 911091.0);
  EXPECT_EQ(Find(pong.result, "z").rank, 1u);
  EXPECT_EQ(Find(pong.result, "x").rank, 2u);
  EXPECT_EQ(Find(pong.result, "y").rank, 3u);

  const ResultRecord& skiing = out->records[1];
  EXPECT_EQ(skiing.line, 5);
  EXPECT_EQ(Find(skiing.result, "x").score, -4336.9);
  EXPECT_EQ(Find(skiing.result, "y").score, -17098.1);
  EXPECT_EQ(Find(skiing.result, "x").rank, 1u);  // -4,336.9 == -4336.9: tie
  EXPECT_EQ(Find(skiing.result, "z").rank, 1u);
  EXPECT_EQ(Find(skiing.result, "y").rank, 3u);

  const ResultRecord& boxing = out->records[2];
  EXPECT_EQ(boxing.line, 6);
  for (const Standing& s : boxing.result.standings) {
    EXPECT_EQ(s.rank, 1u);
    EXPECT_EQ(s.score, 100.0);
  }
}

TEST(ScoresTest, AcceptedNumberForms) {
  struct Case {
    std::string token;
    double value;
  };
  const Case cases[] = {
      {"0", 0},
      {"-0.5", -0.5},
      {"+7", 7},
      {"12345678", 12345678},
      {"1,000", 1000},
      {"12,345,678.25", 12345678.25},
      {".5", 0.5},
      {"5.", 5},
      {"1.5e3", 1500},
      {"-2E-2", -0.02},
      {"1,000e1", 10000},
      {"1,000.", 1000},
      {"3±1", 3},
      {"3+-1", 3},
      {"-1,234.5±6,789.0", -1234.5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.token);
    absl::StatusOr<ReadOutput> out = Parse("# g a b\nt " + c.token + " 0\n");
    ASSERT_THAT(out, IsOk());
    EXPECT_EQ(out->records[0].result.standings[0].score, c.value);
  }
}

TEST(ScoresTest, BadNumbersNameColumnAndAgent) {
  const char* const tokens[] = {
      "1,23.4", "abc", "nan", "inf", "-inf",  "1,2345", "1234,567", ",123", "1,",  "1..2",  "1e",
      "1e+",    "--1", "+",   ".",   "1e999", "0x10",   "1±",       "±1",   "1±x", "1.5.2", "12a"};
  for (const char* token : tokens) {
    SCOPED_TRACE(token);
    EXPECT_THAT(
        Parse(std::string("# g a b\nt 1 ") + token + "\n"),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 std::string("t.txt:2: column 3 (agent b): cannot parse score '") + token + "'"));
  }
}

TEST(ScoresTest, WrongNumberOfScores) {
  EXPECT_THAT(Parse("# game a b c\nt1 1 2 3\nt2 1 2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:3: task t2 has 2 scores, expected 3 (agents: a b c)"));
  EXPECT_THAT(Parse("# game a b\nt1 1 2 3\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:2: task t1 has 3 scores, expected 2 (agents: a b)"));
  EXPECT_THAT(Parse("# game a b\nlonely\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has 0 scores")));
}

TEST(ScoresTest, MissingHeader) {
  EXPECT_THAT(Parse("\nt1 1 2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:2: no column header ('# game agent1 agent2 ...') before the first "
                       "data line"));
}

TEST(ScoresTest, BadHeaders) {
  EXPECT_THAT(Parse("# game a b a\nt 1 2 3\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:1: agent 'a' appears twice in the column header"));
  // The last comment before the data names the columns.
  EXPECT_THAT(Parse("# game a b\n# note here\nt 1 2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:2: the column header ('# game agent1 agent2 ...') names 1 "
                       "agents; a score table needs at least 2"));
  EXPECT_THAT(Parse("# game a\nt 1\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("names 1 agents")));
  EXPECT_THAT(Parse("#\nt 1\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("names 0 agents")));
  ResultLimits limits;
  limits.max_standings = 2;
  EXPECT_THAT(ParseScores("# g a b c\nt 1 2 3\n", "t.txt", limits),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:1: the column header names 3 agents, more than the limit of 2"));
  limits = ResultLimits();
  limits.max_agent_id_bytes = 3;
  EXPECT_THAT(ParseScores("# g a long\nt 1 2\n", "t.txt", limits),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "t.txt:1: agent id of 4 bytes exceeds the limit of 3"));
}

TEST(ScoresTest, CommentsAfterDataAreIgnoredAndEmptyInputIsEmpty) {
  absl::StatusOr<ReadOutput> out = Parse("# g a b\nt 1 2\n# g c d\nu 3 4\n");
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(out->records[1].result.standings[0].agent, "a");
  absl::StatusOr<ReadOutput> empty = Parse("# only comments\n");
  ASSERT_THAT(empty, IsOk());
  EXPECT_TRUE(empty->records.empty());
}

TEST(ScoresTest, TabsSeparateColumns) {
  absl::StatusOr<ReadOutput> out = Parse("#\tg\ta\tb\nt\t2\t1\n");
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(Find(out->records[0].result, "a").rank, 1u);
  EXPECT_EQ(Find(out->records[0].result, "b").rank, 2u);
}

struct AtariFile {
  std::string name;
  size_t agents;
  size_t tasks;
};

TEST(ScoresTest, AtariTablesParse) {
  const AtariFile files[] = {{"atari_rainbow_table6.txt", 8, 54},
                             {"atari_agent57_table.txt", 8, 57},
                             {"atari_muesli_table11.txt", 4, 57}};
  for (const AtariFile& f : files) {
    SCOPED_TRACE(f.name);
    const std::string path = kAtariDir + "/" + f.name;
    absl::StatusOr<Format> format = InferFormat(path);
    ASSERT_THAT(format, IsOk());
    ASSERT_EQ(*format, Format::kScores);
    absl::StatusOr<ReadOutput> out = ReadResultsFile(path, *format, ResultLimits());
    ASSERT_THAT(out, IsOk());
    ASSERT_EQ(out->records.size(), f.tasks);
    for (const ResultRecord& r : out->records) {
      EXPECT_EQ(r.result.standings.size(), f.agents);
      EXPECT_FALSE(r.task.empty());
      EXPECT_THAT(ValidateResult(r.result, ResultLimits()), IsOk());
    }
  }
}

// rainbow line 3: "alien 634.0 518.4 1033.4 900.5 1,486.5 1,997.5 533.3 6,022.9"
TEST(ScoresTest, RainbowAlien) {
  absl::StatusOr<ReadOutput> out =
      ReadResultsFile(kAtariDir + "/atari_rainbow_table6.txt", Format::kScores, ResultLimits());
  ASSERT_THAT(out, IsOk());
  const ResultRecord& alien = out->records[0];
  EXPECT_EQ(alien.task, "alien");
  EXPECT_EQ(alien.line, 3);
  EXPECT_EQ(Find(alien.result, "rainbow").rank, 1u);
  EXPECT_EQ(Find(alien.result, "rainbow").score, 6022.9);
  EXPECT_EQ(Find(alien.result, "distrib-dqn").rank, 2u);   // 1,997.5
  EXPECT_EQ(Find(alien.result, "dueling-ddqn").rank, 3u);  // 1,486.5
  EXPECT_EQ(Find(alien.result, "a3c").rank, 8u);
  EXPECT_EQ(Find(alien.result, "a3c").score, 518.4);
}

// agent57 line 14: "boxing 12.10 0.10 100.00±0.00 100.00±0.00 100.00 99.71±0.25
// 100.00±0.00 99.27±0.35"
TEST(ScoresTest, Agent57BoxingFourWayTie) {
  absl::StatusOr<ReadOutput> out =
      ReadResultsFile(kAtariDir + "/atari_agent57_table.txt", Format::kScores, ResultLimits());
  ASSERT_THAT(out, IsOk());
  const ResultRecord* boxing = nullptr;
  for (const ResultRecord& r : out->records) {
    if (r.task == "boxing") boxing = &r;
  }
  ASSERT_NE(boxing, nullptr);
  EXPECT_EQ(boxing->line, 14);
  for (const char* agent : {"agent57", "r2d2(bandit)", "muzero", "r2d2(retrace)"}) {
    EXPECT_EQ(Find(boxing->result, agent).rank, 1u) << agent;
    EXPECT_EQ(Find(boxing->result, agent).score, 100.0) << agent;
  }
  EXPECT_EQ(Find(boxing->result, "ngu").rank, 5u);   // 99.71
  EXPECT_EQ(Find(boxing->result, "r2d2").rank, 6u);  // 99.27
  EXPECT_EQ(Find(boxing->result, "human").rank, 7u);
  EXPECT_EQ(Find(boxing->result, "random").rank, 8u);
}

// ParseScoreTable keeps what ParseScores drops: the stds, 0 where a cell has none (the
// table kTable above, read by hand).
TEST(ScoresTest, ScoreTableKeepsMeansAndStds) {
  absl::StatusOr<ScoreTable> table = ParseScoreTable(kTable, "t.txt", ResultLimits());
  ASSERT_THAT(table.status(), IsOk());
  EXPECT_EQ(table->agents, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(table->tasks, (std::vector<std::string>{"pong", "skiing", "boxing"}));
  EXPECT_EQ(table->lines, (std::vector<int64_t>{3, 5, 6}));
  EXPECT_EQ(table->means[1], (std::vector<double>{-4336.9, -17098.10, -4336.9}));
  EXPECT_EQ(table->stds[1], (std::vector<double>{12.5, 0.5, 0.0}));
  EXPECT_EQ(table->stds[0], (std::vector<double>{0.0, 0.0, 0.0}));
}

TEST(ScoresTest, NegativeStdIsAnError) {
  EXPECT_THAT(ParseScoreTable("# g x y\nt 1+--2 3\n", "t.txt", ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("t.txt:2: column 2 (agent x): cannot parse score '1+--2'")));
}

TEST(ScoresTest, ParseResultsDispatchesToScores) {
  absl::StatusOr<ReadOutput> out =
      ParseResults("# g a b\nt 1 2\n", "x", Format::kScores, ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->records.size(), 1u);
}

}  // namespace
}  // namespace ratings::io
