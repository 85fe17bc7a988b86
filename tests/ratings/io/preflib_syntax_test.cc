#include "ratings/io/preflib_syntax.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/result.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io::preflib {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;

using Pairs = std::vector<std::pair<int64_t, uint32_t>>;  // (alternative, rank)

Pairs ToPairs(const std::vector<Ranked>& ranked) {
  Pairs pairs;
  for (const Ranked& r : ranked) pairs.emplace_back(r.alternative, r.rank);
  return pairs;
}

// An election of alternatives 1..n, named by their numbers.
struct TestElection {
  explicit TestElection(int64_t n) {
    election.filename = "f.soi";
    election.limits = &limits;
    for (int64_t i = 1; i <= n; ++i) election.agents.push_back(absl::StrCat(i));
    election.ids_valid = true;
  }
  ResultLimits limits;
  Election election;
};

constexpr int64_t kLine = 9;

// Both paths, each from a parser of its own and an empty `ranked`.
struct BothPaths {
  absl::StatusOr<std::optional<int64_t>> fast;     // ParseDataLine
  absl::StatusOr<std::optional<int64_t>> general;  // ParseDataLineGeneral
  std::vector<Ranked> fast_ranked;
  std::vector<Ranked> general_ranked;
};

BothPaths Parse(const Election& election, absl::string_view line) {
  const auto n = static_cast<int64_t>(election.agents.size());
  OrderParser fast_parser(n);
  OrderParser general_parser(n);
  BothPaths both;
  both.fast = ParseDataLine(line, kLine, election, fast_parser, both.fast_ranked);
  both.general = ParseDataLineGeneral(line, kLine, election, general_parser, both.general_ranked);
  return both;
}

// Canonical lines take the fast path and give the count and alternatives written here.
TEST(PreflibSyntaxTest, CanonicalLines) {
  const TestElection five(5);
  struct Case {
    std::string line;
    int64_t count;
    Pairs ranked;
  };
  const Case cases[] = {
      // soi
      {"3: 2,1,5", 3, {{2, 1}, {1, 2}, {5, 3}}},
      {"1: 4", 1, {{4, 1}}},
      {"17:5,4,3,2,1", 17, {{5, 1}, {4, 2}, {3, 3}, {2, 4}, {1, 5}}},
      {"2:   3,1\r", 2, {{3, 1}, {1, 2}}},
      {"0: 1,2", 0, {{1, 1}, {2, 2}}},
      {"100000000: 1,2", 100'000'000, {{1, 1}, {2, 2}}},
      // leading zeros, read as ParseDigits reads them
      {"007: 03,000000000000000001", 7, {{3, 1}, {1, 2}}},
      {"000000000: 5", 0, {{5, 1}}},
      // toc
      {"12: {3,1},5,{2,4}", 12, {{3, 1}, {1, 1}, {5, 2}, {2, 3}, {4, 3}}},
      {"1: 2,{4},1", 1, {{2, 1}, {4, 2}, {1, 3}}},
      {"4: {1,2,3,4,5}", 4, {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}}},
      {"1: {5,4}\r", 1, {{5, 1}, {4, 1}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    OrderParser parser(5);
    std::vector<Ranked> ranked;
    EXPECT_EQ(parser.ParseCanonicalLine(c.line, ranked), c.count);
    EXPECT_EQ(ToPairs(ranked), c.ranked);
    const BothPaths both = Parse(five.election, c.line);
    ASSERT_THAT(both.fast, IsOk());
    ASSERT_THAT(both.general, IsOk());
    EXPECT_EQ(*both.fast, c.count);
    EXPECT_EQ(*both.general, c.count);
    EXPECT_EQ(ToPairs(both.fast_ranked), c.ranked);
    EXPECT_EQ(ToPairs(both.general_ranked), c.ranked);
  }
}

// Lines the fast path leaves to the general one, valid or not: ParseDataLine gives what
// ParseDataLineGeneral gives, and the results written here.
TEST(PreflibSyntaxTest, NonCanonicalLinesTakeTheGeneralPath) {
  const TestElection five(5);
  struct Case {
    std::string line;
    std::optional<int64_t> count;  // when valid and not blank
    Pairs ranked;
    std::string message;  // when not valid
  };
  const Case cases[] = {
      // Valid, not canonical.
      {"1: 1, 2", 1, {{1, 1}, {2, 2}}, ""},
      {"1: 1 ,2", 1, {{1, 1}, {2, 2}}, ""},
      {"1:\t1,2", 1, {{1, 1}, {2, 2}}, ""},
      {"2: { 1 , 2 } ,3 ", 2, {{1, 1}, {2, 1}, {3, 2}}, ""},
      {" 1: 1,2", 1, {{1, 1}, {2, 2}}, ""},
      {"1 : 1,2", 1, {{1, 1}, {2, 2}}, ""},
      {"0000000001: 3", 1, {{3, 1}}, ""},  // 10 digits
      {"1:", 1, {}, ""},
      {"4:  \t ", 4, {}, ""},
      {"", std::nullopt, {}, ""},
      {"  \t", std::nullopt, {}, ""},
      {"\r", std::nullopt, {}, ""},
      // Not valid.
      {"1: 1,2\r\r", std::nullopt, {}, "expected ',' at column 7, found '\\r'"},
      {"1: 1\r,2", std::nullopt, {}, "expected ',' at column 5, found '\\r'"},
      {"1: 1,1", std::nullopt, {}, "alternative 1 appears twice"},
      {"1: {2,3},2", std::nullopt, {}, "alternative 2 appears twice"},
      {"1: 1,6", std::nullopt, {}, "alternative 6 out of range 1..5"},
      {"1: 0", std::nullopt, {}, "alternative 0 out of range 1..5"},
      {"1: 0000000000000000001",
       std::nullopt,
       {},
       "alternative 0000000000000000001 out of range 1..5"},  // 19 digits
      {"1: {}", std::nullopt, {}, "empty braces '{}'"},
      {"1: {1,{2}}", std::nullopt, {}, "nested braces"},
      {"1: {1,2", std::nullopt, {}, "unbalanced braces: '{' without '}'"},
      {"1: 1},2", std::nullopt, {}, "unbalanced braces: '}' without '{'"},
      {"1: 1,2,", std::nullopt, {}, "expected an alternative number at the end of the line"},
      {"1: 1,,2", std::nullopt, {}, "expected an alternative number at column 6, found ','"},
      {"1: ,1", std::nullopt, {}, "expected an alternative number at column 4, found ','"},
      {"1: 1 2", std::nullopt, {}, "expected ',' at column 6, found '2'"},
      {"1000000000: 1,2",
       std::nullopt,
       {},
       "count 1000000000 exceeds the limit of 100000000 votes per line"},
      {"100000001: 1,2",
       std::nullopt,
       {},
       "count 100000001 exceeds the limit of 100000000 votes per line"},
      {"x: 1,2", std::nullopt, {}, "count 'x' is not a non-negative integer"},
      {"1 2", std::nullopt, {}, "expected 'count: order', found no ':'"},
      {"# x: 1", std::nullopt, {}, "'#' header line after the first data line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    OrderParser parser(5);
    std::vector<Ranked> ranked;
    EXPECT_EQ(parser.ParseCanonicalLine(c.line, ranked), std::nullopt);
    const BothPaths both = Parse(five.election, c.line);
    if (c.message.empty()) {
      ASSERT_THAT(both.fast, IsOk());
      ASSERT_THAT(both.general, IsOk());
      EXPECT_EQ(*both.fast, c.count);
      EXPECT_EQ(*both.general, c.count);
      EXPECT_EQ(ToPairs(both.fast_ranked), c.ranked);
      EXPECT_EQ(ToPairs(both.general_ranked), c.ranked);
    } else {
      const std::string message = absl::StrCat("f.soi:", kLine, ": ", c.message);
      EXPECT_THAT(both.fast, StatusIs(absl::StatusCode::kInvalidArgument, message));
      EXPECT_THAT(both.general, StatusIs(absl::StatusCode::kInvalidArgument, message));
    }
  }
}

// A parser kept across lines, as ForEachVoteLine keeps it: what one line marks does not
// make the next one's alternatives duplicates, whether the line was taken or given up.
TEST(PreflibSyntaxTest, FastPathForgetsEachLine) {
  OrderParser parser(3);
  std::vector<Ranked> ranked;
  EXPECT_EQ(parser.ParseCanonicalLine("1: 1,2,3", ranked), 1);
  EXPECT_EQ(parser.ParseCanonicalLine("2: 3,2,1", ranked), 2);
  EXPECT_EQ(ToPairs(ranked), (Pairs{{3, 1}, {2, 2}, {1, 3}}));
  EXPECT_EQ(parser.ParseCanonicalLine("1: 1,2,2", ranked), std::nullopt);
  EXPECT_EQ(parser.ParseCanonicalLine("1: 2,x", ranked), std::nullopt);
  EXPECT_EQ(parser.ParseCanonicalLine("3: {2,1},3", ranked), 3);
  EXPECT_EQ(ToPairs(ranked), (Pairs{{2, 1}, {1, 1}, {3, 2}}));
}

// Random lines for an election of n alternatives: canonical ones, with the result they
// must give, and mutations of them, which may be anything.
class LineGenerator {
 public:
  LineGenerator(int64_t n, uint32_t seed) : n_(n), rng_(seed) {}

  struct Line {
    std::string text;
    bool canonical = false;
    int64_t count = 0;  // when canonical
    Pairs ranked;       // when canonical
  };

  Line Canonical() {
    Line line;
    line.canonical = true;
    line.count = RandomCount();
    std::string count_text = absl::StrCat(line.count);
    if (Chance(10)) {  // leading zeros, still nine digits at most
      const int64_t zeros = Uniform(0, 9 - static_cast<int64_t>(count_text.size()));
      count_text.insert(0, static_cast<size_t>(zeros), '0');
    }
    line.text = absl::StrCat(count_text, ":", std::string(Uniform(0, 2), ' '));
    std::vector<int64_t> alternatives(static_cast<size_t>(n_));
    for (int64_t a = 1; a <= n_; ++a) alternatives[a - 1] = a;
    std::shuffle(alternatives.begin(), alternatives.end(), rng_);
    alternatives.resize(static_cast<size_t>(Uniform(1, std::min<int64_t>(n_, 20))));
    uint32_t rank = 0;
    for (size_t i = 0; i < alternatives.size();) {
      ++rank;
      const size_t group =
          Chance(3) ? static_cast<size_t>(Uniform(1, static_cast<int64_t>(alternatives.size() - i)))
                    : 1;
      const bool braces = group > 1 || Chance(10);
      if (i > 0) line.text += ',';
      if (braces) line.text += '{';
      for (size_t j = 0; j < group; ++j) {
        if (j > 0) line.text += ',';
        const int64_t a = alternatives[i + j];
        if (Chance(20)) line.text.append(static_cast<size_t>(Uniform(1, 3)), '0');
        absl::StrAppend(&line.text, a);
        line.ranked.emplace_back(a, rank);
      }
      if (braces) line.text += '}';
      i += group;
    }
    if (Chance(5)) line.text += '\r';
    return line;
  }

  // A canonical line with one to three random edits; it may happen to still be canonical.
  Line Mutated() {
    Line line = Canonical();
    line.canonical = false;
    const int64_t edits = Uniform(1, 3);
    for (int64_t e = 0; e < edits; ++e) {
      std::string& text = line.text;
      const auto at = static_cast<size_t>(Uniform(0, static_cast<int64_t>(text.size())));
      switch (Uniform(0, 5)) {
        case 0: {  // insert a character that means something, or not
          static constexpr absl::string_view kChars = " \t{},,,:0123456789\rx#-";
          const int64_t last = static_cast<int64_t>(kChars.size()) - 1;
          text.insert(at, 1, kChars[static_cast<size_t>(Uniform(0, last))]);
          break;
        }
        case 1:  // delete one
          if (at < text.size()) text.erase(at, 1);
          break;
        case 2:  // an alternative again, or one out of range
          text.insert(at, absl::StrCat(",", Uniform(0, n_ + 1)));
          break;
        case 3:  // digits somewhere
          text.insert(at, static_cast<size_t>(Uniform(1, 20)),
                      static_cast<char>('0' + Uniform(0, 9)));
          break;
        case 4:  // spaces or a '\r'
          text.insert(at, Chance(2) ? "  " : "\r");
          break;
        default: {  // a count about the bound
          const size_t colon = text.find(':');
          if (colon != std::string::npos) {
            text = absl::StrCat(Uniform(kMaxCount - 2, kMaxCount + 2), text.substr(colon));
          }
          break;
        }
      }
    }
    return line;
  }

 private:
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool Chance(int64_t one_in) { return Uniform(1, one_in) == 1; }
  int64_t RandomCount() {
    switch (Uniform(0, 3)) {
      case 0:
        return 0;
      case 1:
        return Uniform(1, 9);
      case 2:
        return Uniform(10, 100'000);
      default:
        return Uniform(kMaxCount - 10, kMaxCount);
    }
  }

  const int64_t n_;
  std::mt19937 rng_;
};

// Random lines through ParseDataLine (fast path first) and ParseDataLineGeneral, each with
// a parser and `ranked` kept across lines as ForEachVoteLine keeps them: the same result,
// message and `ranked` for every line; the fast path alone takes every canonical line with
// the result it was generated with, and whatever it takes the general path takes alike.
TEST(PreflibSyntaxTest, FastPathAgreesWithGeneralPathOnRandomLines) {
  int64_t lines = 0;
  int64_t canonical = 0;
  int64_t taken = 0;
  int64_t mutated_taken = 0;
  int64_t mutated_errors = 0;
  uint32_t seed = 1;
  for (const int64_t n : {1, 2, 3, 5, 9, 12, 40, 1200}) {
    const TestElection test(n);
    const Election& election = test.election;
    LineGenerator generator(n, seed++);
    OrderParser fast_only(n);
    OrderParser with_fast(n);
    OrderParser general(n);
    std::vector<Ranked> fast_only_ranked;
    std::vector<Ranked> with_fast_ranked;
    std::vector<Ranked> general_ranked;
    for (int i = 0; i < 6000; ++i) {
      const LineGenerator::Line line = i % 2 == 0 ? generator.Canonical() : generator.Mutated();
      SCOPED_TRACE(absl::StrCat("n ", n, " line '", line.text, "'"));
      ++lines;
      const absl::StatusOr<std::optional<int64_t>> expected =
          ParseDataLineGeneral(line.text, kLine, election, general, general_ranked);
      const absl::StatusOr<std::optional<int64_t>> got =
          ParseDataLine(line.text, kLine, election, with_fast, with_fast_ranked);
      ASSERT_EQ(got.status(), expected.status());
      if (got.ok()) {
        ASSERT_EQ(*got, *expected);
      }
      ASSERT_EQ(ToPairs(with_fast_ranked), ToPairs(general_ranked));
      if (!expected.ok()) ++mutated_errors;

      const std::optional<int64_t> fast = fast_only.ParseCanonicalLine(line.text, fast_only_ranked);
      if (line.canonical) {
        ++canonical;
        ASSERT_EQ(fast, line.count);
        ASSERT_EQ(ToPairs(fast_only_ranked), line.ranked);
      }
      if (fast.has_value()) {
        ++taken;
        if (!line.canonical) ++mutated_taken;
        ASSERT_THAT(expected, IsOk());
        ASSERT_EQ(*expected, fast);
        ASSERT_EQ(ToPairs(fast_only_ranked), ToPairs(general_ranked));
      }
    }
  }
  EXPECT_GE(lines, 20'000);
  EXPECT_GT(taken, 0);
  EXPECT_GE(taken, canonical);
  // The mutations reach both kinds of line, and errors.
  EXPECT_GT(mutated_taken, 0);
  EXPECT_GT(lines - taken, 0);
  EXPECT_GT(mutated_errors, 0);
}

}  // namespace
}  // namespace ratings::io::preflib
