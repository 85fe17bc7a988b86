#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/read_results.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

const std::string kPreflibDir = std::string(RATINGD_TEST_DATA) + "/preflib";

// A minimal header for alternatives named `names` (1-based in order), then `data`.
std::string File(const std::vector<std::string>& names, const std::string& data) {
  std::string text = absl::StrCat("# FILE NAME: test.soi\n# DATA TYPE: soi\n",
                                  "# NUMBER ALTERNATIVES: ", names.size(), "\n");
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&text, "# ALTERNATIVE NAME ", i + 1, ": ", names[i], "\n");
  }
  absl::StrAppend(&text, data);
  return text;
}

const std::vector<std::string> kFour = {"Ann", "Bob", "Cid", "Dee"};
constexpr int64_t kFirstDataLine = 8;  // 3 header lines + 4 names + 1

// (agent, rank) pairs of a result, in the order of the standings.
std::vector<std::pair<std::string, uint32_t>> Pairs(const Result& result) {
  std::vector<std::pair<std::string, uint32_t>> pairs;
  for (const Standing& s : result.standings) pairs.emplace_back(s.agent, s.rank);
  return pairs;
}

using P = std::vector<std::pair<std::string, uint32_t>>;

absl::StatusOr<ReadOutput> Parse(std::string_view content) {
  return ParsePreflib(content, "f.soi", ResultLimits());
}

TEST(PreflibTest, StrictCompleteOrder) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "1: 2,1,4,3\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  const ResultRecord& r = out->records[0];
  EXPECT_EQ(Pairs(r.result), (P{{"Bob", 1}, {"Ann", 2}, {"Dee", 3}, {"Cid", 4}}));
  EXPECT_EQ(r.result.weight, 1.0);
  EXPECT_EQ(r.line, kFirstDataLine);
  EXPECT_EQ(r.pool, "");
  EXPECT_EQ(r.game_id, "");
  EXPECT_EQ(r.task, "");
  EXPECT_FALSE(r.result.standings[0].score.has_value());
  EXPECT_EQ(out->skipped_votes, 0);
}

TEST(PreflibTest, IncompleteOrderLeavesOthersOut) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "1: 3,1\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  EXPECT_EQ(Pairs(out->records[0].result), (P{{"Cid", 1}, {"Ann", 2}}));
}

TEST(PreflibTest, BracesTie) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "1: {2,3},1,{4}\n1: 4,{1,2,3}\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(Pairs(out->records[0].result), (P{{"Bob", 1}, {"Cid", 1}, {"Ann", 2}, {"Dee", 3}}));
  EXPECT_EQ(Pairs(out->records[1].result), (P{{"Dee", 1}, {"Ann", 2}, {"Bob", 2}, {"Cid", 2}}));
  EXPECT_EQ(out->records[1].line, kFirstDataLine + 1);
}

TEST(PreflibTest, AllTiedIsStillAResult) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "1: {1,2,3}\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  EXPECT_EQ(Pairs(out->records[0].result), (P{{"Ann", 1}, {"Bob", 1}, {"Cid", 1}}));
}

TEST(PreflibTest, SpacesAfterCommasAndInsideBraces) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "2 : 1, 2, { 3 , 4 }\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(Pairs(out->records[1].result), (P{{"Ann", 1}, {"Bob", 2}, {"Cid", 3}, {"Dee", 3}}));
}

TEST(PreflibTest, CountExpandsToThatManyRecords) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "3: 1,2\n2: 2,1\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 5u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out->records[i].line, kFirstDataLine);
    EXPECT_EQ(Pairs(out->records[i].result), (P{{"Ann", 1}, {"Bob", 2}}));
  }
  for (int i = 3; i < 5; ++i) {
    EXPECT_EQ(out->records[i].line, kFirstDataLine + 1);
    EXPECT_EQ(out->records[i].result.weight, 1.0);
  }
}

TEST(PreflibTest, CountZeroAndSingleAlternativeAreSkipped) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, "0: 1,2,3,4\n7: 3\n2: {2}\n1: 1,2\n"));
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  EXPECT_EQ(out->records[0].line, kFirstDataLine + 3);
  EXPECT_EQ(out->skipped_votes, 0 + 7 + 2);
}

TEST(PreflibTest, CrlfAndTrailingBlankLines) {
  absl::StatusOr<ReadOutput> out = Parse(
      "# NUMBER ALTERNATIVES: 2\r\n# ALTERNATIVE NAME 1: x\r\n"
      "# ALTERNATIVE NAME 2: y\r\n1: 2,1\r\n\r\n\n");
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 1u);
  EXPECT_EQ(Pairs(out->records[0].result), (P{{"y", 1}, {"x", 2}}));
}

TEST(PreflibTest, NamesAreTrimmed) {
  absl::StatusOr<ReadOutput> out = Parse(File({"  Ann  ", "Bob\t"}, "1: 1,2\n"));
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(Pairs(out->records[0].result), (P{{"Ann", 1}, {"Bob", 2}}));
}

TEST(PreflibTest, NameFallbackToNumbers) {
  struct Case {
    std::string name;
    std::vector<std::string> names;
  };
  const Case cases[] = {
      {"duplicate", {"Ann", "Bob", "Ann"}},
      {"empty", {"Ann", "", "Cid"}},
      {"over-long", {"Ann", "Bob", std::string(ResultLimits().max_agent_id_bytes + 1, 'c')}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    absl::StatusOr<ReadOutput> out = Parse(File(c.names, "1: 3,1,2\n"));
    ASSERT_THAT(out, IsOk());
    ASSERT_EQ(out->records.size(), 1u);
    EXPECT_EQ(Pairs(out->records[0].result), (P{{"3", 1}, {"1", 2}, {"2", 3}}));
  }
}

TEST(PreflibTest, HeaderWithoutDataIsEmpty) {
  absl::StatusOr<ReadOutput> out = Parse(File(kFour, ""));
  ASSERT_THAT(out, IsOk());
  EXPECT_TRUE(out->records.empty());
  EXPECT_EQ(out->skipped_votes, 0);
}

// Each bad data line (after the 4-alternative header) and the message it must produce.
TEST(PreflibTest, BadDataLinesNameFileAndLine) {
  struct Case {
    std::string line;
    std::string message;
  };
  const Case cases[] = {
      {"1: 1,9", "alternative 9 out of range 1..4"},
      {"1: 0,1", "alternative 0 out of range 1..4"},
      {"1: 1,99999999999999999999999", "alternative 99999999999999999999999 out of range 1..4"},
      {"1: 1,2,1", "alternative 1 appears twice"},
      {"1: 1,{2,1}", "alternative 1 appears twice"},
      {"1: 1,{2,3", "unbalanced braces: '{' without '}'"},
      {"1: 1,2},3", "unbalanced braces: '}' without '{'"},
      {"1: 1,}", "unbalanced braces: '}' without '{'"},
      {"1: {}", "empty braces '{}'"},
      {"1: {1,{2}}", "nested braces"},
      {"1: {1,}", "expected an alternative number at column 7, found '}'"},
      {"1: 1,2,", "expected an alternative number at the end of the line"},
      {"1: 1,,2", "expected an alternative number at column 6, found ','"},
      {"1: 1 2", "expected ',' at column 6, found '2'"},
      {"1: 1,2 x", "expected ',' at column 8, found 'x'"},
      {"1: {1,2}3", "expected ',' at column 9, found '3'"},
      {"1: -1,2", "expected an alternative number at column 4, found '-'"},
      {"x: 1,2", "count 'x' is not a non-negative integer"},
      {"-1: 1,2", "count '-1' is not a non-negative integer"},
      {"1.5: 1,2", "count '1.5' is not a non-negative integer"},
      {": 1,2", "count '' is not a non-negative integer"},
      {"1 2", "expected 'count: order', found no ':'"},
      {"100000001: 1,2", "count 100000001 exceeds the limit of 100000000 votes per line"},
      {"99999999999999999999999: 1,2",
       "count 99999999999999999999999 exceeds the limit of 100000000 votes per line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    EXPECT_THAT(Parse(File(kFour, "1: 1,2\n" + c.line + "\n")),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         absl::StrCat("f.soi:", kFirstDataLine + 1, ": ", c.message)));
  }
}

TEST(PreflibTest, BadHeaders) {
  EXPECT_THAT(
      Parse("# NUMBER ALTERNATIVES: 3\n# ALTERNATIVE NAME 1: a\n"
            "# ALTERNATIVE NAME 3: c\n1: 1,3\n"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "f.soi:4: missing '# ALTERNATIVE NAME 2' header (NUMBER ALTERNATIVES is 3)"));
  EXPECT_THAT(Parse("# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 2: b\n1: 1,2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f.soi:3: no '# NUMBER ALTERNATIVES: N' header before the data lines"));
  EXPECT_THAT(Parse("1: 1,2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("f.soi:1: no '# NUMBER")));
  EXPECT_THAT(Parse(""), StatusIs(absl::StatusCode::kInvalidArgument,
                                  "f.soi: no '# NUMBER ALTERNATIVES: N' header before the data "
                                  "lines"));
  EXPECT_THAT(Parse("# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 1: a\n"
                    "# ALTERNATIVE NAME 2: b\n# ALTERNATIVE NAME 3: c\n1: 1,2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f.soi:5: '# ALTERNATIVE NAME 3' (line 4) exceeds NUMBER ALTERNATIVES 2"));
  // Several names past the count: the first in the file is named (hand-checked: line 2,
  // whichever order the names are kept in).
  for (int run = 0; run < 20; ++run) {
    EXPECT_THAT(Parse("# NUMBER ALTERNATIVES: 1\n# ALTERNATIVE NAME 5: e\n"
                      "# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 2: b\n"
                      "# ALTERNATIVE NAME 3: c\n# ALTERNATIVE NAME 4: d\n1: 1\n"),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "f.soi:7: '# ALTERNATIVE NAME 5' (line 2) exceeds NUMBER ALTERNATIVES 1"));
  }
  EXPECT_THAT(Parse("# NUMBER ALTERNATIVES: two\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f.soi:1: NUMBER ALTERNATIVES 'two' is not a positive integer"));
  EXPECT_THAT(Parse("# NUMBER ALTERNATIVES: 0\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a positive integer")));
  EXPECT_THAT(Parse("# NUMBER ALTERNATIVES: 2\n# NUMBER ALTERNATIVES: 2\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f.soi:2: repeated '# NUMBER ALTERNATIVES' header (first on line 1)"));
  EXPECT_THAT(Parse("# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 1: b\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f.soi:3: repeated '# ALTERNATIVE NAME 1' header (first on line 2)"));
  EXPECT_THAT(Parse("# ALTERNATIVE NAME x: a\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "f.soi:1: bad alternative number 'x' in 'ALTERNATIVE NAME x'"));
  EXPECT_THAT(Parse(File(kFour, "1: 1,2\n# NUMBER VOTERS: 1\n")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("f.soi:", kFirstDataLine + 1,
                                    ": '#' header line after the first data line")));
}

TEST(PreflibTest, TooManyStandingsFailsValidationWithLine) {
  ResultLimits limits;
  limits.max_standings = 3;
  EXPECT_THAT(
      ParsePreflib(File(kFour, "1: 1,2,3\n1: 1,2,3,4\n"), "f.soi", limits),
      StatusIs(absl::StatusCode::kInvalidArgument,
               absl::StrCat("f.soi:", kFirstDataLine + 1, ": too many standings (4 > limit 3)")));
}

// The header's NUMBER VOTERS, read independently of the parser.
int64_t NumberOfVoters(const std::string& content) {
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    if (absl::ConsumePrefix(&line, "# NUMBER VOTERS:")) {
      int64_t voters = -1;
      if (absl::SimpleAtoi(line, &voters)) return voters;
    }
  }
  return -1;
}

std::string ReadAll(const std::filesystem::path& path) {
  std::string content;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return content;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) content.append(buffer, n);
  std::fclose(f);
  return content;
}

TEST(PreflibTest, EveryRealFileParsesAndAccountsForEveryVoter) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kPreflibDir)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".soc" && ext != ".soi" && ext != ".toc" && ext != ".toi") continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    const std::string content = ReadAll(entry.path());
    const int64_t voters = NumberOfVoters(content);
    ASSERT_GT(voters, 0);
    absl::StatusOr<Format> format = InferFormat(entry.path().string());
    ASSERT_THAT(format, IsOk());
    EXPECT_EQ(*format, Format::kPreflib);
    absl::StatusOr<ReadOutput> out =
        ReadResultsFile(entry.path().string(), Format::kPreflib, ResultLimits());
    ASSERT_THAT(out, IsOk());
    EXPECT_EQ(static_cast<int64_t>(out->records.size()) + out->skipped_votes, voters);
    for (const ResultRecord& r : out->records) {
      ASSERT_THAT(ValidateResult(r.result, ResultLimits()), IsOk());
    }
  }
  EXPECT_EQ(files, 48);
}

TEST(PreflibTest, AspenMayor2009) {
  absl::StatusOr<ReadOutput> out =
      ReadResultsFile(kPreflibDir + "/00016-00000002.toi", Format::kPreflib, ResultLimits());
  ASSERT_THAT(out, IsOk());
  // Line 18 "323: 4" ranks one alternative: 323 skipped votes, no result.
  // Line 19 "200: 1,2,3,4" is the first result, 200 times.
  ASSERT_GE(out->records.size(), 201u);
  EXPECT_EQ(out->records[0].line, 19);
  EXPECT_EQ(out->records[199].line, 19);
  EXPECT_EQ(out->records[200].line, 20);  // "194: 4,2"
  EXPECT_EQ(Pairs(out->records[0].result),
            (P{{"Marilyn Marks", 1}, {"Lj Erspamer", 2}, {"Andrew Kole", 3}, {"Mick Ireland", 4}}));
  EXPECT_EQ(Pairs(out->records[200].result), (P{{"Mick Ireland", 1}, {"Lj Erspamer", 2}}));
  // Line 95 "1: 1,3,2,{4,5}": Mick Ireland and Write In tie for 4th.
  int found = 0;
  for (const ResultRecord& r : out->records) {
    if (r.line != 95) continue;
    ++found;
    EXPECT_EQ(Pairs(r.result), (P{{"Marilyn Marks", 1},
                                  {"Andrew Kole", 2},
                                  {"Lj Erspamer", 3},
                                  {"Mick Ireland", 4},
                                  {"Write In", 4}}));
  }
  EXPECT_EQ(found, 1);
  EXPECT_GE(out->skipped_votes, 323);
}

TEST(PreflibTest, NetflixCountZeroLine) {
  absl::StatusOr<ReadOutput> out =
      ReadResultsFile(kPreflibDir + "/00004-00000103.soc", Format::kPreflib, ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->records.size(), 411u);  // "0: 2,1,4,3" adds nothing
  EXPECT_EQ(out->skipped_votes, 0);
  for (const ResultRecord& r : out->records) EXPECT_NE(r.line, 40);
}

TEST(PreflibTest, HabermasLongNamesFallBackToNumbers) {
  absl::StatusOr<ReadOutput> out =
      ReadResultsFile(kPreflibDir + "/00070-00000001.soc", Format::kPreflib, ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 5u);
  for (const Standing& s : out->records[0].result.standings) {
    EXPECT_THAT(s.agent, ::testing::AnyOf("1", "2", "3", "4"));
  }
}

TEST(PreflibTest, ParseResultsDispatchesToPreflib) {
  absl::StatusOr<ReadOutput> out =
      ParseResults(File(kFour, "2: 1,2\n"), "x", Format::kPreflib, ResultLimits());
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->records.size(), 2u);
}

}  // namespace
}  // namespace ratings::io
