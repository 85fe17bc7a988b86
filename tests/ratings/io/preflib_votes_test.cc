// ParsePreflibVotes against its definition: ToVoteSet(ParsePreflib(...).records) with a new
// index (records_to_votes.h), the reference here. Field by field (every vote's agents and
// ranks as given and best first, its weight and line, the agents' names by id, num_agents,
// skipped_votes) or the same error, on the PrefLib files of tests/data/preflib/, on
// generated files (counts from 0, ties, incomplete orders, names and numbers), on files of
// kParallelBytes and more (two threads) with errors in either half, and on broken files.
#include "ratings/io/preflib_votes.h"

#include <algorithm>
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
#include "tests/ratings/io/preflib_votes_reference.h"
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

using ::ratings::io::testing::ToVector;
using ::ratings::io::testing::VotesDifference;

// CheckVotes (votes_check.h) for ParsePreflibVotes.
absl::StatusOr<VoteInput> Check(const std::string& content, const ResultLimits& limits = {},
                                const std::string& filename = "f.soi", bool small = true) {
  return ::ratings::io::testing::CheckVotes(ParsePreflibVotes, VotesDifference, content, limits,
                                            filename, small);
}

std::string Header(const std::vector<std::string>& names) {
  std::string text =
      absl::StrCat("# FILE NAME: f.toi\n# NUMBER ALTERNATIVES: ", names.size(), "\n");
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&text, "# ALTERNATIVE NAME ", i + 1, ": ", names[i], "\n");
  }
  return text;
}

// Worked by hand: agents take ids as they first appear (c, a, d, b), a count of 2 gives
// two votes, a count of 0 and a single alternative give none.
TEST(PreflibVotesTest, SmallFileByHand) {
  const std::string text = Header({"a", "b", "c", "d"}) + "2: 3,1\n0: 2,1\n1: 2\n\n1: 4,{2,3},1\n";
  const absl::StatusOr<VoteInput> out = Check(text);
  ASSERT_THAT(out, IsOk());
  EXPECT_THAT(out->agents.names(), ElementsAre("c", "a", "d", "b"));
  ASSERT_EQ(out->votes.size(), 3u);
  EXPECT_EQ(out->votes.num_agents(), 4u);
  EXPECT_EQ(out->skipped_votes, 1);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_THAT(ToVector(out->votes[i].agents), ElementsAre(0u, 1u));
    EXPECT_THAT(ToVector(out->votes[i].ranks), ElementsAre(1u, 2u));
  }
  EXPECT_THAT(ToVector(out->votes[2].agents), ElementsAre(2u, 3u, 0u, 1u));
  EXPECT_THAT(ToVector(out->votes[2].ranks), ElementsAre(1u, 2u, 2u, 3u));
  EXPECT_EQ(out->votes.TotalWeight(), 3.0);
}

TEST(PreflibVotesTest, NoDataLinesIsAnEmptyElection) {
  const absl::StatusOr<VoteInput> out = Check(Header({"a", "b"}));
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->votes.size(), 0u);
  EXPECT_EQ(out->votes.num_agents(), 0u);
  EXPECT_EQ(out->agents.size(), 0u);
  EXPECT_THAT(Check("# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 1: a\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ALTERNATIVE NAME 2")));
}

TEST(PreflibVotesTest, EveryTestDataFile) {
  const std::string dir = std::string(RATINGD_TEST_DATA) + "/preflib";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".md") continue;
    SCOPED_TRACE(entry.path().string());
    std::ifstream file(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    const absl::StatusOr<VoteInput> out = Check(buffer.str(), {}, entry.path().filename().string());
    ASSERT_THAT(out, IsOk());
    EXPECT_GT(out->votes.size(), 0u);
    ++files;
  }
  EXPECT_EQ(files, 48u);
}

// The header of `n` alternatives: named, or (some name empty, repeated or too long) numbered.
std::string RandomHeader(std::mt19937& rng, size_t n) {
  std::vector<std::string> names;
  const uint32_t naming = rng() % 4;
  for (size_t i = 1; i <= n; ++i) {
    names.push_back(naming == 1 && i == n   ? ""
                    : naming == 2 && i == n ? "x1"
                    : naming == 3 && i == 1 ? std::string(300, 'L')
                                            : absl::StrCat("x", i));
  }
  return Header(names);
}

// `lines` random data lines over `n` alternatives, each ending in '\n': counts from 0 (a few
// large), complete and incomplete orders, single alternatives, ties in braces, spaces, CRLF
// and blank lines.
std::string RandomLines(std::mt19937& rng, size_t n, size_t lines) {
  std::string text;
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i + 1;
  for (size_t line = 0; line < lines; ++line) {
    const uint32_t r = rng() % 100;
    if (r < 3) {
      text += r == 0 ? "\n" : r == 1 ? " \t\r\n" : "\r\n";
      continue;
    }
    const uint32_t count = r < 60 ? 1 : r < 70 ? 0 : r < 90 ? 2 + rng() % 4 : rng() % 40;
    std::shuffle(order.begin(), order.end(), rng);
    const size_t ranked = rng() % 2 == 0 ? n : 1 + rng() % n;
    std::vector<std::string> parts;
    for (size_t i = 0; i < ranked;) {
      const size_t tied = rng() % 4 == 0 ? std::min<size_t>(1 + rng() % 3, ranked - i) : 1;
      std::vector<size_t> group(order.begin() + i, order.begin() + i + tied);
      const char* comma = rng() % 3 == 0 ? " , " : ",";
      parts.push_back(tied > 1 || rng() % 10 == 0
                          ? absl::StrCat("{", absl::StrJoin(group, comma), "}")
                          : absl::StrCat(group[0]));
      i += tied;
    }
    absl::StrAppend(&text, rng() % 5 == 0 ? " " : "", count, rng() % 4 == 0 ? " : " : ":",
                    absl::StrJoin(parts, ","), rng() % 6 == 0 ? "\r\n" : "\n");
  }
  return text;
}

// A random file of `n` alternatives and `lines` data lines, sometimes without a final '\n'.
std::string RandomFile(std::mt19937& rng, size_t n, size_t lines) {
  std::string text = RandomHeader(rng, n) + RandomLines(rng, n, lines);
  if (rng() % 2 == 0) text.pop_back();
  return text;
}

TEST(PreflibVotesTest, GeneratedFiles) {
  std::mt19937 rng(17);
  for (int i = 0; i < 400; ++i) {
    const size_t n = 1 + rng() % 12;
    const std::string text = RandomFile(rng, n, rng() % 30);
    SCOPED_TRACE(text);
    ASSERT_THAT(Check(text), IsOk());
  }
}

// Limits that the votes reach: too many standings, ids over the size limit; and limits
// more permissive than ToVoteSet's defaults, where ToVoteSet's own check gives the error.
TEST(PreflibVotesTest, LimitsAndToVoteSetsOwnChecks) {
  std::mt19937 rng(5);
  ResultLimits few_standings;
  few_standings.max_standings = 3;
  ResultLimits short_ids;
  short_ids.max_agent_id_bytes = 1;
  for (int i = 0; i < 100; ++i) {
    const std::string text = RandomFile(rng, 2 + rng() % 12, 1 + rng() % 20);
    SCOPED_TRACE(text);
    Check(text, few_standings).status().IgnoreError();
    Check(text, short_ids).status().IgnoreError();
  }
  // 300 alternatives, one 300-byte name (in the file's names when the limit allows it).
  std::vector<std::string> names;
  for (size_t i = 1; i <= 300; ++i)
    names.push_back(i == 7 ? std::string(300, 'L') : absl::StrCat("a", i));
  std::vector<std::string> all;
  for (size_t i = 1; i <= 300; ++i) all.push_back(absl::StrCat(i));
  const std::string wide = Header(names) + "1: 1,2\n2: 3,7\n1: " + absl::StrJoin(all, ",") + "\n";
  ResultLimits permissive;
  permissive.max_standings = 1000;
  permissive.max_agent_id_bytes = 1000;
  // ParsePreflib takes every vote; ToVoteSet refuses line 304's long name first.
  EXPECT_THAT(Check(wide, permissive),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("f.soi:304: standings[1]: agent id of 300 bytes")));
  ResultLimits wide_only;
  wide_only.max_standings = 1000;
  EXPECT_THAT(Check(wide, wide_only),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("f.soi:305: too many standings (300 > limit 256)")));
  // Under the default limits ParsePreflib's own error comes first.
  EXPECT_THAT(Check(wide), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("f.soi:305: too many standings (300 > limit 256)")));
  // So does one on a line after ToVoteSet's, in whichever half of a split file it falls.
  EXPECT_THAT(Check(wide + "1: 1,1\n", permissive),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("f.soi:306: alternative 1 appears twice")));
}

TEST(PreflibVotesTest, BrokenFilesGiveTheSameError) {
  const std::string head = Header({"a", "b", "c"});
  for (const std::string& bad :
       {head + "1: 1,1\n",
        head + "1: 1,{2,3\n",
        head + "x: 1,2\n",
        head + "1: 4,1\n",
        head + "1: 1,2\n# NUMBER VOTERS: 3\n",
        head + "1 1,2\n",
        head + "100000001: 1,2\n",
        head + "1: {}\n",
        head + "1: 1,{2,{3}}\n",
        head + "1: 1,}\n",
        head + "1: 1;2\n",
        head + "99999999999999999999: 1,2\n",
        head + "1: 1,2,\n",
        head + "1: 1 2\n",
        std::string("# NUMBER ALTERNATIVES: 0\n1: 1,2\n"),
        std::string("1: 1,2\n"),
        std::string("# NUMBER ALTERNATIVES: 2\n# NUMBER ALTERNATIVES: 2\n"),
        std::string("# NUMBER ALTERNATIVES: 1\n# ALTERNATIVE NAME 2: b\n1: 1\n"),
        std::string("# NUMBER ALTERNATIVES: 2\n# ALTERNATIVE NAME 1: a\n1: 1,2\n"),
        std::string("# ALTERNATIVE NAME x: a\n")}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(Check(bad).ok());
  }
}

// Files of kParallelBytes and more are read on two threads; an error in the first half
// wins over one in the second, as on one thread.
TEST(PreflibVotesTest, LargeFilesOnTwoThreads) {
  std::mt19937 rng(23);
  for (const size_t n : {5, 40}) {
    SCOPED_TRACE(n);
    std::string body = RandomHeader(rng, n);
    while (body.size() < kParallelBytes + kParallelBytes / 2) body += RandomLines(rng, n, 1000);
    const absl::StatusOr<VoteInput> out = Check(body, {}, "f.soi", /*small=*/false);
    ASSERT_THAT(out, IsOk());
    EXPECT_GT(out->votes.size(), 50000u);
    for (const std::string bad : {"1: 1,1", "x: 1,2", "1: 99,1", "# late", "1: {1,2"}) {
      SCOPED_TRACE(bad);
      const std::string first = WithLine(body, body.size() / 4, bad);
      const std::string second = WithLine(body, body.size() * 3 / 4, bad);
      const std::string both = WithLine(first, body.size() * 3 / 4, bad);
      const absl::StatusOr<VoteInput> first_out = Check(first, {}, "f.soi", false);
      const absl::StatusOr<VoteInput> second_out = Check(second, {}, "f.soi", false);
      const absl::StatusOr<VoteInput> both_out = Check(both, {}, "f.soi", false);
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
