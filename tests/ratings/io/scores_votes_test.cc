// ParseScoresVotes against its definition: ToVoteSet(ParseScores(...).records) with a new
// index (records_to_votes.h), the reference here. Field by field (every vote's agents and
// ranks as given and best first, its weight and line, the agents' names by id, num_agents)
// or the same error, on the score tables of tests/data/atari/, on generated tables (ties,
// -0.0 and 0.0, thousands separators, `mean±std`, comments, CRLF, up to 40 columns), on
// tables of kParallelBytes and more (two threads) with errors in either half, on broken
// tables, and under limits past ToVoteSet's defaults.
#include "ratings/io/scores_votes.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"
#include "tests/ratings/io/line_edits.h"
#include "tests/ratings/io/scores_votes_reference.h"
#include "tests/ratings/io/votes_check.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::io::testing::MessageLine;
using ::ratings::io::testing::WithLine;
using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using ::ratings::io::testing::ScoresVotesDifference;
using ::ratings::io::testing::ToVector;

// CheckVotes (votes_check.h) for ParseScoresVotes.
absl::StatusOr<VoteInput> Check(const std::string& content, const ResultLimits& limits = {},
                                const std::string& filename = "f.txt", bool small = true) {
  return ::ratings::io::testing::CheckVotes(ParseScoresVotes, ScoresVotesDifference, content,
                                            limits, filename, small);
}

// Worked by hand: agent id = column; competition ranks as given (equal scores tie, -0.0
// with 0.0); best first by score descending, ties in column order, with dense ranks.
TEST(ScoresVotesTest, SmallFileByHand) {
  const std::string text =
      "# from a paper\n# game a b c d\n\nt1 3 1 3 2\n# late comment\n \r\n"
      "t2\t-0.0 0.0 1,000 5\xC2\xB1"
      "1\r\nt3 2 2 2 2";
  const absl::StatusOr<VoteInput> out = Check(text);
  ASSERT_THAT(out, IsOk());
  EXPECT_THAT(out->agents.names(), ElementsAre("a", "b", "c", "d"));
  ASSERT_EQ(out->votes.size(), 3u);
  EXPECT_EQ(out->votes.num_agents(), 4u);
  EXPECT_EQ(out->skipped_votes, 0);
  EXPECT_EQ(out->votes.TotalWeight(), 3.0);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_THAT(ToVector(out->votes[i].agents), ElementsAre(0u, 1u, 2u, 3u));
    EXPECT_EQ(out->votes.Weight(i), 1.0);
  }
  EXPECT_THAT(ToVector(out->votes[0].ranks), ElementsAre(1u, 4u, 1u, 3u));
  EXPECT_THAT(ToVector(out->votes.BestFirst(0).agents), ElementsAre(0u, 2u, 3u, 1u));
  EXPECT_THAT(ToVector(out->votes.BestFirst(0).ranks), ElementsAre(1u, 1u, 2u, 3u));
  EXPECT_THAT(ToVector(out->votes[1].ranks), ElementsAre(3u, 3u, 1u, 2u));
  EXPECT_THAT(ToVector(out->votes.BestFirst(1).agents), ElementsAre(2u, 3u, 0u, 1u));
  EXPECT_THAT(ToVector(out->votes.BestFirst(1).ranks), ElementsAre(1u, 2u, 3u, 3u));
  EXPECT_THAT(ToVector(out->votes[2].ranks), ElementsAre(1u, 1u, 1u, 1u));
  EXPECT_THAT(ToVector(out->votes.BestFirst(2).agents), ElementsAre(0u, 1u, 2u, 3u));
  EXPECT_THAT(ToVector(out->votes.BestFirst(2).ranks), ElementsAre(1u, 1u, 1u, 1u));
}

TEST(ScoresVotesTest, NoDataLinesIsAnEmptyTable) {
  for (const std::string text : {"", "# game a b\n", "\n# just a comment\n\n"}) {
    const absl::StatusOr<VoteInput> out = Check(text);
    ASSERT_THAT(out, IsOk());
    EXPECT_EQ(out->votes.size(), 0u);
    EXPECT_EQ(out->votes.num_agents(), 0u);
    EXPECT_EQ(out->agents.size(), 0u);
  }
}

TEST(ScoresVotesTest, EveryTestDataFile) {
  const std::string dir = std::string(RATINGD_TEST_DATA) + "/atari";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".md") continue;
    SCOPED_TRACE(entry.path().string());
    std::ifstream file(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    const absl::StatusOr<VoteInput> out = Check(buffer.str(), {}, entry.path().filename().string());
    ASSERT_THAT(out, IsOk());
    EXPECT_GT(out->votes.size(), 50u);
    ++files;
  }
  EXPECT_EQ(files, 3u);
}

// A score, drawn from few values so that rows tie: integers, -0.0 and 0.0, thousands
// separators, decimals, exponents, `mean±std` and `mean+-std`.
std::string RandomScore(std::mt19937& rng) {
  switch (rng() % 10) {
    case 0:
      return rng() % 2 == 0 ? "-0.0" : "0";
    case 1:
      return rng() % 2 == 0 ? "1,000" : "1000.0";
    case 2:
      return absl::StrCat(rng() % 4, "\xC2\xB1", rng() % 3);
    case 3:
      return absl::StrCat(rng() % 4, "+-0.5");
    case 4:
      return rng() % 2 == 0 ? "2e0" : "-1.5E+1";
    case 5:
      return absl::StrCat("1,", 100 + rng() % 3, ".", rng() % 10);
    default:
      return absl::StrCat(rng() % 2 == 0 ? "-" : "", rng() % 6);
  }
}

// `rows` random data lines of `n` scores, each ending in '\n', with comments, blank lines,
// tabs and CRLF among them; with `broken`, a cell or a row may be bad.
std::string RandomRows(std::mt19937& rng, size_t n, size_t rows, bool broken) {
  std::string text;
  for (size_t row = 0; row < rows; ++row) {
    const uint32_t r = rng() % 100;
    if (r < 8) {
      text += r < 3 ? "\n" : r < 5 ? " \t\r\n" : "# between rows\n";
      continue;
    }
    std::vector<std::string> cells = {absl::StrCat("task", row)};
    for (size_t a = 0; a < n; ++a) cells.push_back(RandomScore(rng));
    if (broken && rng() % 20 == 0) {
      if (rng() % 2 == 0) {
        cells[1 + rng() % n] = rng() % 2 == 0 ? "x1" : "1,00";
      } else {
        cells.pop_back();
      }
    }
    absl::StrAppend(&text, rng() % 5 == 0 ? "  " : "",
                    absl::StrJoin(cells, rng() % 4 == 0 ? "\t" : " "),
                    rng() % 6 == 0 ? "\r\n" : "\n");
  }
  return text;
}

// The comments up to the column header of `n` agents, each line ending in '\n'.
std::string RandomHeader(std::mt19937& rng, size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back(absl::StrCat("ag", i));
  return absl::StrCat(rng() % 2 == 0 ? "# a table\n" : "", rng() % 3 == 0 ? "#\tgame " : "# game ",
                      absl::StrJoin(names, " "), "\n");
}

// A random table of `n` columns and `rows` data lines, sometimes without a final '\n'.
std::string RandomTable(std::mt19937& rng, size_t n, size_t rows, bool broken) {
  std::string text = RandomHeader(rng, n) + RandomRows(rng, n, rows, broken);
  if (rng() % 2 == 0) text.pop_back();
  return text;
}

TEST(ScoresVotesTest, GeneratedTables) {
  std::mt19937 rng(29);
  size_t ok = 0;
  for (int i = 0; i < 400; ++i) {
    // 2..40 columns, counted below 32 and sorted above.
    const size_t n = i % 4 == 0 ? 33 + rng() % 8 : 2 + rng() % 31;
    const std::string text = RandomTable(rng, n, rng() % 30, /*broken=*/i % 3 == 0);
    SCOPED_TRACE(text);
    ok += Check(text).ok() ? 1 : 0;
  }
  // Most tables are valid; the broken ones give their errors.
  EXPECT_GT(ok, 200u);
  EXPECT_LT(ok, 400u);
}

// More permissive limits than ToVoteSet's defaults: ParseScores takes the table, ToVoteSet
// refuses its first row, at that row's line.
TEST(ScoresVotesTest, LimitsPastToVoteSetsDefaults) {
  ResultLimits permissive;
  permissive.max_standings = 1000;
  permissive.max_agent_id_bytes = 1000;
  std::vector<std::string> names;
  std::vector<std::string> cells;
  for (size_t i = 0; i < 300; ++i) {
    names.push_back(absl::StrCat("a", i));
    cells.push_back(absl::StrCat(i % 7));
  }
  const std::string row = "t " + absl::StrJoin(cells, " ") + "\n";
  const std::string wide = "# game " + absl::StrJoin(names, " ") + "\n\n" + row + row;
  EXPECT_THAT(Check(wide, permissive),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("f.txt:3: too many standings (300 > limit 256)")));
  EXPECT_EQ(Check(wide, permissive).status().message(),
            "f.txt:3: too many standings (300 > limit 256)");
  // Under the default limits the column header's own error comes first.
  EXPECT_THAT(Check(wide), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("f.txt:1: the column header names 300 agents")));
  // A 300-byte column name, the seventh.
  const std::string long_name =
      "# c\n# game a b c d e f " + std::string(300, 'L') + "\n\nt 1 2 3 4 5 6 7\nu 7 6 5 4 3 2 1\n";
  EXPECT_EQ(Check(long_name, permissive).status().message(),
            "f.txt:4: standings[6]: agent id of 300 bytes exceeds the limit of 256");
  ResultLimits wide_only;
  wide_only.max_standings = 1000;
  EXPECT_THAT(Check(long_name, wide_only),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("f.txt:2: agent id of 300")));
  // ParseScores' own error wins, on any row, in whichever half of a split table it falls.
  EXPECT_THAT(
      Check(wide + "t 1\n", permissive),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("f.txt:5: task t has 1 scores")));
  EXPECT_THAT(
      Check(long_name + "v 1 2 3 4 5 6 x\n", permissive),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("f.txt:6: column 8 (agent LLL")));
  // Within the defaults the permissive limits change nothing.
  ASSERT_THAT(Check("# game a b c\nt 1 2 3\n", permissive), IsOk());
}

TEST(ScoresVotesTest, BrokenTablesGiveTheSameError) {
  const std::string head = "# game a b c\n";
  for (const std::string& bad :
       {head + "t 1 2\n", head + "t 1 2 3 4\n", head + "t 1 2 x\n", head + "t 1 2 1,00\n",
        head + "t 1 2 inf\n", head + "t 1 2 nan\n", head + "t 1 2 1e999\n", head + "t 1 2 3±-1\n",
        head + "t 1 2 3\nu 1 2\n", head + "t 1 2 3\n# c\n\nu 1 , 2\n", std::string("t 1 2\n"),
        std::string("# game a\nt 1\n"), std::string("# game a a\nt 1 2\n"),
        std::string("# game a b\n# game\nt 1 2\n")}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(Check(bad).ok());
  }
}

// Tables of kParallelBytes and more are read on two threads; an error in the first half
// wins over one in the second, as on one thread.
TEST(ScoresVotesTest, LargeTablesOnTwoThreads) {
  std::mt19937 rng(31);
  for (const size_t n : {5, 40}) {
    SCOPED_TRACE(n);
    std::string table = RandomHeader(rng, n);
    while (table.size() < kParallelBytes + kParallelBytes / 2) {
      table += RandomRows(rng, n, 1000, false);
    }
    const absl::StatusOr<VoteInput> out = Check(table, {}, "f.txt", /*small=*/false);
    ASSERT_THAT(out, IsOk());
    EXPECT_GT(out->votes.size(), 5000u);
    for (const std::string bad : {"t 1", "t x", "t 1,00 2", "  "}) {
      SCOPED_TRACE(bad);
      const std::string first = WithLine(table, table.size() / 4, bad);
      const std::string second = WithLine(table, table.size() * 3 / 4, bad);
      const std::string both = WithLine(first, table.size() * 3 / 4, bad);
      const absl::StatusOr<VoteInput> first_out = Check(first, {}, "f.txt", false);
      const absl::StatusOr<VoteInput> second_out = Check(second, {}, "f.txt", false);
      const absl::StatusOr<VoteInput> both_out = Check(both, {}, "f.txt", false);
      if (bad == "  ") {  // a blank line: no error either way
        EXPECT_THAT(first_out, IsOk());
        continue;
      }
      ASSERT_FALSE(first_out.ok());
      ASSERT_FALSE(second_out.ok());
      ASSERT_FALSE(both_out.ok());
      EXPECT_LT(MessageLine(first_out.status()), MessageLine(second_out.status()));
      EXPECT_EQ(both_out.status(), first_out.status());
    }
  }
}

}  // namespace
}  // namespace ratings::io
