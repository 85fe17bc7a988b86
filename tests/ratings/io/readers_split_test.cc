// The PrefLib and score-table readers split the data lines of large files between two
// threads (ratings/io/parallel_lines.h). Here every input of kParallelBytes and more is
// read both ways: split, and on one thread (ScopedParallelBytesForTesting(SIZE_MAX)); the
// records, every field, or the error, must be the same. Errors are put in the first half,
// the second or both, and the one reported must be the first in the file.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"
#include "tests/ratings/io/jsonl_reference.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::io::testing::OutputDifference;
using ::ratings::io::testing::SameBits;
using ::ratings::testing::IsOk;

// Content past the split size, with room to spare on both sides of the middle.
constexpr size_t kLargeBytes = kParallelBytes + kParallelBytes / 2;

// Names of some agents longer than std::string's inline buffer, some shorter.
std::string AgentName(size_t i) {
  return i % 3 == 0 ? absl::StrCat("model-with-a-long-name-", i) : absl::StrCat("m", i);
}

// A PrefLib file of `n` alternatives of the given kind ("soc", "soi", "toc", "toi"):
// counts of 0, 1 and more, votes ranking a single alternative (skipped), braces for ties
// in .toc/.toi, spaces, blank lines and CRLF, until the data lines pass kLargeBytes. The
// votes rank alternatives 1..`used` only (all when 0).
std::string LargePreflib(const std::string& kind, size_t n, uint32_t seed, size_t used = 0) {
  std::mt19937 rng(seed);
  std::string text = absl::StrCat("# FILE NAME: big.", kind, "\n# DATA TYPE: ", kind,
                                  "\n# NUMBER ALTERNATIVES: ", n, "\n");
  for (size_t i = 1; i <= n; ++i) {
    absl::StrAppend(&text, "# ALTERNATIVE NAME ", i, ": ", AgentName(i), "\n");
  }
  const bool complete = kind == "soc" || kind == "toc";
  const bool ties = kind == "toc" || kind == "toi";
  std::vector<size_t> order(used == 0 ? n : used);
  for (size_t i = 0; i < order.size(); ++i) order[i] = i + 1;
  const size_t header_size = text.size();
  while (text.size() - header_size < kLargeBytes) {
    const uint32_t r = rng() % 100;
    if (r < 2) {
      text += r == 0 ? "\n" : "  \r\n";
      continue;
    }
    const uint32_t count = r < 70 ? 1 : r < 75 ? 0 : 2 + rng() % 4;
    std::shuffle(order.begin(), order.end(), rng);
    // Incomplete: sometimes just one.
    const size_t ranked = complete ? order.size() : 1 + rng() % order.size();
    std::vector<std::string> parts;
    for (size_t i = 0; i < ranked;) {
      const size_t tied = ties && rng() % 5 == 0 ? std::min<size_t>(2 + rng() % 2, ranked - i) : 1;
      std::vector<size_t> group(order.begin() + i, order.begin() + i + tied);
      parts.push_back(tied > 1 || (ties && rng() % 20 == 0)
                          ? absl::StrCat("{", absl::StrJoin(group, ","), "}")
                          : absl::StrCat(group[0]));
      i += tied;
    }
    absl::StrAppend(&text, count, rng() % 4 == 0 ? " : " : ": ", absl::StrJoin(parts, ","),
                    rng() % 5 == 0 ? "\r\n" : "\n");
  }
  return text;
}

// `value` with a comma between groups of three digits: 1,234,567.
std::string Grouped(uint64_t value) {
  const std::string digits = absl::StrCat(value);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

// A score table of `n` agents: thousands separators, mean±std and mean+-std, negative
// numbers, exponents, ties, comments and blank lines among the rows, CRLF.
std::string LargeScoreTable(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string text = "# scores of many tasks\n# game";
  for (size_t i = 1; i <= n; ++i) absl::StrAppend(&text, " ", AgentName(i));
  text += "\n";
  int64_t task = 0;
  while (text.size() < kLargeBytes) {
    const uint32_t r = rng() % 100;
    if (r < 2) {
      text += r == 0 ? "\n" : "# a comment among the rows\n";
      continue;
    }
    absl::StrAppend(&text, "task_", ++task);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t kind = rng() % 8;
      const uint32_t whole = rng() % 2000000;
      switch (kind) {
        case 0:  // ties: a few common values
          absl::StrAppend(&text, "\t", 100 * (rng() % 3));
          break;
        case 1:  // thousands separators
          absl::StrAppend(&text, " ", Grouped(whole * 1009), ".", rng() % 10);
          break;
        case 2:
          absl::StrAppend(&text, " -", whole % 5000, ".", rng() % 100, "\xC2\xB1", rng() % 30, ".",
                          rng() % 10);
          break;
        case 3:
          absl::StrAppend(&text, " ", whole % 900, "+-", rng() % 7);
          break;
        case 4:
          absl::StrAppend(&text, " ", rng() % 10, ".", rng() % 1000, "e", rng() % 5);
          break;
        default:
          absl::StrAppend(&text, " ", whole % 100000, ".", rng() % 100);
          break;
      }
    }
    text += rng() % 7 == 0 ? " \r\n" : "\n";
  }
  return text;
}

// The start of the first line at or after `offset`.
size_t LineAt(const std::string& text, size_t offset) { return text.find('\n', offset) + 1; }

// `text` with the line at or after `offset` replaced by `line`.
std::string WithLine(std::string text, size_t offset, const std::string& line) {
  const size_t start = LineAt(text, offset);
  text.replace(start, text.find('\n', start) - start, line);
  return text;
}

// Versions of `text` with `bad_line` put in the first half, in the second, and in both.
struct Broken {
  std::string first;
  std::string second;
  std::string both;
};
Broken Break(const std::string& text, const std::string& bad_line) {
  Broken broken;
  broken.first = WithLine(text, text.size() / 4, bad_line);
  broken.second = WithLine(text, text.size() * 3 / 4, bad_line);
  broken.both = WithLine(broken.first, text.size() * 3 / 4, bad_line);
  return broken;
}

absl::StatusOr<ReadOutput> OnOneThread(
    absl::StatusOr<ReadOutput> (*parse)(std::string_view, std::string_view, const ResultLimits&),
    const std::string& text, const std::string& filename, const ResultLimits& limits) {
  const ScopedParallelBytesForTesting one_thread(SIZE_MAX);
  return parse(text, filename, limits);
}

// Empty when both tables are the same error or the same table, else what differs.
std::string TableDifference(const absl::StatusOr<ScoreTable>& a,
                            const absl::StatusOr<ScoreTable>& b) {
  if (a.ok() != b.ok() || (!a.ok() && a.status() != b.status())) {
    return absl::StrCat("got ", a.status().ToString(), "\nexpected ", b.status().ToString());
  }
  if (!a.ok()) return "";
  if (a->agents != b->agents) return "agents";
  if (a->tasks != b->tasks) return "tasks";
  if (a->lines != b->lines) return "lines";
  if (a->means.size() != b->means.size() || a->stds.size() != b->stds.size()) return "rows";
  for (size_t t = 0; t < a->means.size(); ++t) {
    if (a->means[t].size() != b->means[t].size()) return absl::StrCat("row ", t);
    for (size_t i = 0; i < a->means[t].size(); ++i) {
      if (!SameBits(a->means[t][i], b->means[t][i]) || !SameBits(a->stds[t][i], b->stds[t][i])) {
        return absl::StrCat("row ", t, " column ", i);
      }
    }
  }
  return "";
}

// The PrefLib output of `text`, split and on one thread, which must agree; returns it.
absl::StatusOr<ReadOutput> CheckPreflib(const std::string& text,
                                        const ResultLimits& limits = ResultLimits()) {
  EXPECT_GE(text.size(), kParallelBytes);
  absl::StatusOr<ReadOutput> split = ParsePreflib(text, "big.soi", limits);
  EXPECT_EQ(OutputDifference(split, OnOneThread(ParsePreflib, text, "big.soi", limits)), "");
  return split;
}

absl::StatusOr<ReadOutput> CheckScores(const std::string& text) {
  EXPECT_GE(text.size(), kParallelBytes);
  absl::StatusOr<ReadOutput> split = ParseScores(text, "big.txt", ResultLimits());
  EXPECT_EQ(OutputDifference(split, OnOneThread(ParseScores, text, "big.txt", ResultLimits())), "");
  absl::StatusOr<ScoreTable> table = ParseScoreTable(text, "big.txt", ResultLimits());
  absl::StatusOr<ScoreTable> one_table;
  {
    const ScopedParallelBytesForTesting one_thread(SIZE_MAX);
    one_table = ParseScoreTable(text, "big.txt", ResultLimits());
  }
  EXPECT_EQ(TableDifference(table, one_table), "");
  EXPECT_EQ(table.ok(), split.ok());
  if (table.ok() && split.ok()) {
    EXPECT_EQ(table->tasks.size(), split->records.size());
  } else if (!table.ok() && !split.ok()) {
    EXPECT_EQ(table.status(), split.status());
  }
  return split;
}

// The line number in "FILE:LINE: ..." of a message.
int64_t MessageLine(const absl::Status& status) {
  const std::vector<std::string> parts = absl::StrSplit(status.message(), ':');
  int64_t line = 0;
  EXPECT_TRUE(parts.size() > 2 && absl::SimpleAtoi(parts[1], &line)) << status;
  return line;
}

// The errors of a broken copy of `text`, split and on one thread; the one in the first
// half wins over the one in the second.
template <typename Check>
void CheckErrors(const std::string& text, const std::string& bad_line, Check check) {
  const Broken broken = Break(text, bad_line);
  const absl::StatusOr<ReadOutput> first = check(broken.first);
  const absl::StatusOr<ReadOutput> second = check(broken.second);
  const absl::StatusOr<ReadOutput> both = check(broken.both);
  ASSERT_FALSE(first.ok()) << bad_line;
  ASSERT_FALSE(second.ok()) << bad_line;
  ASSERT_FALSE(both.ok()) << bad_line;
  EXPECT_LT(MessageLine(first.status()), MessageLine(second.status()));
  EXPECT_EQ(both.status(), first.status());
}

TEST(ReadersSplitTest, PreflibOfEveryKindReadsAsOnOneThread) {
  for (const std::string kind : {"soc", "soi", "toc", "toi"}) {
    SCOPED_TRACE(kind);
    const std::string text = LargePreflib(kind, kind[2] == 'c' ? 12 : 40, 7);
    const absl::StatusOr<ReadOutput> out = CheckPreflib(text);
    ASSERT_THAT(out, IsOk());
    EXPECT_GT(out->records.size(), 10000u);
    if (kind == "soi" || kind == "toi") {
      EXPECT_GT(out->skipped_votes, 0);
    }
    // Records in file order: their lines never decrease.
    for (size_t i = 1; i < out->records.size(); ++i) {
      ASSERT_LE(out->records[i - 1].line, out->records[i].line);
    }
  }
}

TEST(ReadersSplitTest, PreflibErrorsInEitherHalfAreTheFileFirst) {
  const std::string text = LargePreflib("toc", 12, 11);
  for (const std::string bad : {"1: 1,1", "1: 1,{2,3", "x: 1,2", "1: 13,1", "# NUMBER VOTERS: 3",
                                "1 1,2", "100000001: 1,2"}) {
    SCOPED_TRACE(bad);
    CheckErrors(text, bad, [](const std::string& t) { return CheckPreflib(t); });
  }
  // The checks of ValidateResult, which the reader runs only where they can fail: too many
  // standings, and ids over the size limit (the numbers, as a name is repeated). The votes
  // rank alternatives 1..9 of 12, so that only the broken lines fail.
  std::string partial = LargePreflib("toi", 12, 13, /*used=*/9);
  partial.replace(partial.find("# ALTERNATIVE NAME 2: m2"), 24, "# ALTERNATIVE NAME 2: m1");
  ResultLimits few_standings;
  few_standings.max_standings = 11;
  CheckErrors(partial, "1: 1,2,3,4,5,6,7,8,9,10,11,12",
              [&](const std::string& t) { return CheckPreflib(t, few_standings); });
  ResultLimits short_ids;
  short_ids.max_agent_id_bytes = 1;
  CheckErrors(partial, "2: 10,1", [&](const std::string& t) { return CheckPreflib(t, short_ids); });
}

TEST(ReadersSplitTest, ScoreTablesReadAsOnOneThread) {
  // 20 agents rank by counting, 130 by sorting (scores.cc).
  for (const size_t n : {20, 130}) {
    SCOPED_TRACE(n);
    const std::string text = LargeScoreTable(n, 3);
    const absl::StatusOr<ReadOutput> out = CheckScores(text);
    ASSERT_THAT(out, IsOk());
    EXPECT_GT(out->records.size(), 500u);
    // Ranks by their definition: 1 + the number of strictly higher scores.
    for (const ResultRecord& record : out->records) {
      const std::vector<Standing>& standings = record.result.standings;
      for (const Standing& s : standings) {
        uint32_t rank = 1;
        for (const Standing& other : standings) rank += *other.score > *s.score ? 1 : 0;
        ASSERT_EQ(s.rank, rank) << record.task;
      }
    }
  }
}

TEST(ReadersSplitTest, ScoreTableErrorsInEitherHalfAreTheFileFirst) {
  const std::string text = LargeScoreTable(20, 5);
  std::string too_few = "bad_task";
  for (int i = 0; i < 19; ++i) too_few += " 1";
  std::string unparsable = too_few + " 1,00";
  for (const std::string& bad :
       {too_few, unparsable, too_few + " 1 2", too_few + " -1\xC2\xB1-1"}) {
    SCOPED_TRACE(bad);
    CheckErrors(text, bad, [](const std::string& t) { return CheckScores(t); });
  }
}

// Small files split at every size: with the split size at 1 byte every body is read in
// two halves, whatever line its middle falls on.
TEST(ReadersSplitTest, SmallFilesSplitAnywhere) {
  const std::string preflib_head =
      "# NUMBER ALTERNATIVES: 3\n# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 2: b\n"
      "# ALTERNATIVE NAME 3: c\n";
  const std::vector<std::string> preflib_lines = {
      "2: 1,2,3", "", "0: 3,1", "1: {1,2},3\r", "1: 2", "3: 3,{2,1}", "  ", "1: 1,3"};
  const std::vector<std::string> preflib_bad = {"1: 1,1", "# late", "1: 4,1", "x"};
  const std::string scores_head = "# c\n# game a b c\n";
  const std::vector<std::string> scores_lines = {"t1 1 2 3",
                                                 "",
                                                 "t2 1,000 5\xC2\xB1"
                                                 "1 -2",
                                                 "# note",
                                                 "t3 3 3 3\r",
                                                 "t4 1e2 100 +-1"};
  const std::vector<std::string> scores_bad = {"t 1 2", "t 1 2 x", "t 1 2 3 4"};
  // Every subset of lines in order (by bit mask), with and without a bad line at each place.
  auto variants = [](const std::vector<std::string>& lines, const std::vector<std::string>& bad) {
    std::vector<std::string> out;
    for (uint32_t mask = 0; mask < (1u << lines.size()); mask += 3) {
      std::vector<std::string> chosen;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (mask & (1u << i)) chosen.push_back(lines[i]);
      }
      out.push_back(absl::StrJoin(chosen, "\n"));
      for (size_t at = 0; at <= chosen.size(); ++at) {
        std::vector<std::string> with_bad = chosen;
        with_bad.insert(with_bad.begin() + at, bad[(mask + at) % bad.size()]);
        out.push_back(absl::StrJoin(with_bad, "\n") + (at % 2 == 0 ? "\n" : ""));
      }
    }
    return out;
  };
  for (const std::string& body : variants(preflib_lines, preflib_bad)) {
    const std::string text = preflib_head + body;
    const absl::StatusOr<ReadOutput> one = OnOneThread(ParsePreflib, text, "s.soi", ResultLimits());
    const ScopedParallelBytesForTesting split(1);
    EXPECT_EQ(OutputDifference(ParsePreflib(text, "s.soi", ResultLimits()), one), "") << text;
  }
  for (const std::string& body : variants(scores_lines, scores_bad)) {
    const std::string text = scores_head + body;
    const absl::StatusOr<ReadOutput> one = OnOneThread(ParseScores, text, "s.txt", ResultLimits());
    absl::StatusOr<ScoreTable> one_table;
    {
      const ScopedParallelBytesForTesting one_thread(SIZE_MAX);
      one_table = ParseScoreTable(text, "s.txt", ResultLimits());
    }
    const ScopedParallelBytesForTesting split(1);
    EXPECT_EQ(OutputDifference(ParseScores(text, "s.txt", ResultLimits()), one), "") << text;
    EXPECT_EQ(TableDifference(ParseScoreTable(text, "s.txt", ResultLimits()), one_table), "")
        << text;
  }
}

}  // namespace
}  // namespace ratings::io
