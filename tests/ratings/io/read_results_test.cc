#include "ratings/io/read_results.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ReadResultsTest, ParseFormat) {
  EXPECT_EQ(*ParseFormat("jsonl"), Format::kJsonl);
  EXPECT_EQ(*ParseFormat("preflib"), Format::kPreflib);
  EXPECT_EQ(*ParseFormat("scores"), Format::kScores);
  EXPECT_EQ(*ParseFormat("battles"), Format::kBattles);
  EXPECT_EQ(*ParseFormat("battles-csv"), Format::kBattlesCsv);
  for (const char* bad : {"", "JSONL", "json", "soc", "csv", "Battles", "battles_csv"}) {
    SCOPED_TRACE(bad);
    EXPECT_THAT(ParseFormat(bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("expected jsonl, preflib, scores, battles or battles-csv")));
  }
}

TEST(ReadResultsTest, InferFormatFromEachExtension) {
  const std::pair<std::string, Format> cases[] = {
      {"a.jsonl", Format::kJsonl},
      {"dir/a.json", Format::kJsonl},
      {"/x/y.soc", Format::kPreflib},
      {"y.soi", Format::kPreflib},
      {"y.toc", Format::kPreflib},
      {"y.toi", Format::kPreflib},
      {"atari.txt", Format::kScores},
      {"t.tsv", Format::kScores},
      {"t.scores", Format::kScores},
      {"UPPER.SOC", Format::kPreflib},
      {"v1.2/results.jsonl", Format::kJsonl},
      {"arena.csv", Format::kBattlesCsv},
      {"dir/ARENA.CSV", Format::kBattlesCsv},
  };
  for (const auto& [path, format] : cases) {
    SCOPED_TRACE(path);
    absl::StatusOr<Format> got = InferFormat(path);
    ASSERT_THAT(got, IsOk());
    EXPECT_EQ(*got, format);
  }
}

TEST(ReadResultsTest, InferFormatUnknownExtensionNamesPath) {
  for (const char* path :
       {"results.xlsx", "noext", "dir.jsonl/file", "dir.csv/file", "trailing."}) {
    SCOPED_TRACE(path);
    EXPECT_THAT(InferFormat(path), StatusIs(absl::StatusCode::kInvalidArgument,
                                            HasSubstr(std::string("'") + path + "'")));
  }
}

TEST(ReadResultsTest, MissingFileNamesPath) {
  const std::string path = "/nonexistent/dir/results.jsonl";
  EXPECT_THAT(
      ReadResultsFile(path, Format::kJsonl, ResultLimits()),
      StatusIs(absl::StatusCode::kNotFound, "cannot open " + path + ": No such file or directory"));
}

TEST(ReadResultsTest, DirectoryNamesPath) {
  const std::string path = ::testing::TempDir();
  absl::StatusOr<ReadOutput> out = ReadResultsFile(path, Format::kJsonl, ResultLimits());
  ASSERT_THAT(out, Not(IsOk()));
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("cannot read " + path));
}

TEST(ReadResultsTest, ReadsTempFile) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / "read_results_test.toi").string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  const std::string content =
      "# NUMBER ALTERNATIVES: 3\n# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 2: b\n"
      "# ALTERNATIVE NAME 3: c\n2: 3,{1,2}\n1: 2\n";
  ASSERT_EQ(std::fwrite(content.data(), 1, content.size(), f), content.size());
  ASSERT_EQ(std::fclose(f), 0);

  absl::StatusOr<Format> format = InferFormat(path);
  ASSERT_THAT(format, IsOk());
  absl::StatusOr<ReadOutput> out = ReadResultsFile(path, *format, ResultLimits());
  ASSERT_THAT(out, IsOk());
  ASSERT_EQ(out->records.size(), 2u);
  EXPECT_EQ(out->skipped_votes, 1);
  EXPECT_EQ(out->records[0].line, 5);
  EXPECT_EQ(out->records[0].result.standings[0].agent, "c");

  // Errors from the parser name the path too.
  EXPECT_THAT(ReadResultsFile(path, Format::kScores, ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(path + ":5: ")));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ratings::io
