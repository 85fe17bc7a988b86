// The score-table syntax's pieces with a fast path (scores_syntax.h) against their
// definitions: ParseNumber's value against absl::SimpleAtod of the number without its
// commas, and Ranks (counting up to 32 columns, a sort of packed keys above) against ranks
// and a best-first order computed pair by pair, with ties, -0.0 and 0.0, and scores one
// unit in the last place apart.
#include "ratings/io/scores_syntax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace ratings::io::scores {
namespace {

// SimpleAtod of `s` without its commas: the value ParseNumber defines, once the syntax passed.
std::optional<double> Reference(const std::string& s) {
  std::string plain;
  for (char c : s) {
    if (c != ',') plain.push_back(c);
  }
  double value = 0;
  if (!absl::SimpleAtod(plain, &value) || !std::isfinite(value)) return std::nullopt;
  return value;
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void ExpectSameValue(const std::string& s) {
  const std::optional<double> got = ParseNumber(s);
  ASSERT_TRUE(got.has_value()) << s;
  const std::optional<double> want = Reference(s);
  ASSERT_TRUE(want.has_value()) << s;
  EXPECT_TRUE(SameBits(*got, *want)) << s << ": " << *got << " vs " << *want;
}

TEST(ScoresSyntaxTest, ParseNumberIsSimpleAtodsValue) {
  for (const std::string s : {"0",
                              "-0",
                              "+0",
                              "-0.0",
                              "0.",
                              ".5",
                              "-.5",
                              "+.25",
                              "1,486.5",
                              "999,999,999,999.999",
                              "999999999999999",
                              "9999999999999999",
                              "0.1",
                              "0.3",
                              "2.675",
                              "123456789012345",
                              "1234567890123456",
                              "0.000000000000001",
                              "0.0000000000000001",
                              "9007199254740993",
                              "1,000",
                              "-1,000.000",
                              "00000000000000012",
                              "1e0",
                              "1.5E+3",
                              "-2e-308",
                              "4.9e-324",
                              "1e308",
                              "17976931348623157e292",
                              "12,345,678.9",
                              "+12.3456789012345"}) {
    SCOPED_TRACE(s);
    ExpectSameValue(s);
  }
  for (const std::string bad : {"", "-", ".", "1,00", "1,0000", ",100", "1e", "1e+", "1e999",
                                "-1e999", "1.2.3", "1,000,00", "1 2", "inf", "nan", "0x10"}) {
    EXPECT_FALSE(ParseNumber(bad).has_value()) << bad;
  }
  // Random decimals of 1 to 20 digits, with and without separators, fractions and signs.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 20);
    std::string integer;
    for (int d = 0; d < digits; ++d) integer.push_back(static_cast<char>('0' + rng() % 10));
    const int fraction = static_cast<int>(rng() % 18) - 2;  // below 0: none, not even '.'
    const size_t split = rng() % (integer.size() + 1);
    std::string s = integer.substr(0, split);
    if (rng() % 3 == 0 && split > 3) {  // thousands separators
      std::string grouped;
      for (size_t d = 0; d < s.size(); ++d) {
        if (d > 0 && (s.size() - d) % 3 == 0) grouped.push_back(',');
        grouped.push_back(s[d]);
      }
      s = grouped;
    }
    if (fraction >= 0) s.append(".").append(integer, split, std::string::npos);
    if (s.empty() || s == ".") s += "0";
    const uint64_t sign = rng() % 4;
    if (sign == 0) s.insert(s.begin(), '-');
    if (sign == 1) s.insert(s.begin(), '+');
    SCOPED_TRACE(s);
    ExpectSameValue(s);
  }
}

bool AllDigits(absl::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The grammar read_results.h states, by splitting rather than scanning as ParseNumber does:
// [+-], then a mantissa and an optional exponent ((e|E) [+-] digits) split at the first e
// or E; the mantissa an integer part and an optional fraction ('.' digits) split at its
// first '.'; the integer part plain digits (possibly none) or comma-separated groups, the
// first of 1-3 digits and the others of 3; a digit somewhere in the mantissa.
bool MatchesGrammar(absl::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const size_t e = s.find_first_of("eE");
  absl::string_view mantissa = s.substr(0, e);
  if (e != absl::string_view::npos) {
    absl::string_view exponent = s.substr(e + 1);
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
    if (exponent.empty() || !AllDigits(exponent)) return false;
  }
  const size_t dot = mantissa.find('.');
  const absl::string_view integer = mantissa.substr(0, dot);
  const absl::string_view fraction =
      dot == absl::string_view::npos ? absl::string_view() : mantissa.substr(dot + 1);
  if (!AllDigits(fraction)) return false;
  if (!AllDigits(integer)) {
    const std::vector<absl::string_view> groups = absl::StrSplit(integer, ',');
    if (groups.front().empty() || groups.front().size() > 3) return false;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (!AllDigits(groups[g]) || (g > 0 && groups[g].size() != 3)) return false;
    }
  }
  return mantissa.find_first_of("0123456789") != absl::string_view::npos;
}

// Random strings over the characters of numbers and a few others: ParseNumber accepts
// exactly those of the grammar (MatchesGrammar) whose value is finite, with SimpleAtod's
// value.
TEST(ScoresSyntaxTest, ParseNumberAcceptsExactlyTheGrammar) {
  const std::string alphabet = "0123456789012345,,..eE+-x ";
  std::mt19937_64 rng(11);
  size_t accepted = 0;
  for (int i = 0; i < 300000; ++i) {
    std::string s;
    const size_t length = rng() % 13;
    for (size_t j = 0; j < length; ++j) s.push_back(alphabet[rng() % alphabet.size()]);
    const bool valid = MatchesGrammar(s) && Reference(s).has_value();
    const std::optional<double> got = ParseNumber(s);
    ASSERT_EQ(got.has_value(), valid) << "'" << s << "'";
    if (valid) {
      ASSERT_TRUE(SameBits(*got, *Reference(s))) << s;
      ++accepted;
    }
  }
  EXPECT_GT(accepted, 10000u);  // a fair share of valid numbers among them
}

// Ranks by their definition: 1 + the strictly higher scores; best first, the columns by
// score descending, ties in column order.
void ExpectRanks(const std::vector<double>& scores, RankScratch& scratch) {
  const size_t k = scores.size();
  std::vector<uint32_t> ranks(k);
  std::vector<AgentId> best_first(k);
  Ranks(scores, ranks.data(), best_first.data(), scratch);
  std::vector<uint32_t> ranks_only(k);
  Ranks(scores, ranks_only.data(), nullptr, scratch);
  std::vector<AgentId> want_best_first;
  for (size_t i = 0; i < k; ++i) {
    uint32_t higher = 0;
    for (double other : scores) higher += other > scores[i] ? 1 : 0;
    ASSERT_EQ(ranks[i], higher + 1) << "k " << k << " column " << i;
    ASSERT_EQ(ranks_only[i], higher + 1) << "k " << k << " column " << i;
    want_best_first.push_back(static_cast<AgentId>(i));
  }
  for (size_t i = 1; i < k; ++i) {  // a stable insertion sort by score, descending
    for (size_t j = i; j > 0 && scores[want_best_first[j]] > scores[want_best_first[j - 1]]; --j) {
      std::swap(want_best_first[j], want_best_first[j - 1]);
    }
  }
  ASSERT_EQ(best_first, want_best_first) << "k " << k;
}

TEST(ScoresSyntaxTest, RanksAndBestFirst) {
  std::mt19937_64 rng(11);
  RankScratch scratch;
  for (int i = 0; i < 3000; ++i) {
    const size_t k = 2 + rng() % 300;
    std::vector<double> scores(k);
    const double base = std::ldexp(static_cast<double>(rng() % 1000) - 500, rng() % 40 - 20);
    for (double& s : scores) {
      switch (rng() % 6) {
        case 0:  // a few distinct values: many ties
          s = static_cast<double>(rng() % 4);
          break;
        case 1:
          s = rng() % 2 == 0 ? -0.0 : 0.0;
          break;
        case 2: {  // within a few units in the last place of `base`: only the low bits differ
          s = base;
          for (uint64_t step = rng() % 6; step > 0; --step) s = std::nextafter(s, 1e300);
          break;
        }
        case 3:
          s = -base;
          break;
        default:
          s = std::ldexp(static_cast<double>(rng() % 100000) - 50000, rng() % 60 - 30);
      }
    }
    ExpectRanks(scores, scratch);
  }
}

}  // namespace
}  // namespace ratings::io::scores
