// ParseJsonl's simdjson fast path (ratings/io/jsonl_fast.h) against protobuf alone: for
// generated lines of every kind, valid and not, ParseJsonl must give exactly what the
// protobuf-only reader of jsonl_reference.h gives (the same records, every field, or the
// same error text); and whenever the fast path takes a line, protobuf must accept that line
// and produce the same record.
#include "ratings/io/jsonl_fast.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/game_result_proto.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"
#include "tests/ratings/io/jsonl_reference.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::io::testing::OutputDifference;
using ::ratings::io::testing::ProtobufJsonToMessage;
using ::ratings::io::testing::RecordDifference;
using ::ratings::io::testing::ReferenceParseJsonl;
using ::ratings::testing::IsOk;

::testing::AssertionResult SameOutput(const absl::StatusOr<ReadOutput>& actual,
                                      const absl::StatusOr<ReadOutput>& expected) {
  const std::string difference = OutputDifference(actual, expected);
  if (difference.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << difference;
}

// Random GameResult lines: mostly well-formed, with every kind of deviation mixed in.
class LineGenerator {
 public:
  explicit LineGenerator(uint32_t seed) : rng_(seed) {}

  std::string Line() {
    std::vector<std::string> fields;
    if (Chance(0.97)) fields.push_back(Field("pool", StringValue()));
    if (Chance(0.97)) fields.push_back(Field(Pick({"gameId", "game_id"}), StringValue()));
    if (Chance(0.5)) fields.push_back(Field(Pick({"eventTime", "event_time"}), TimeValue()));
    if (Chance(0.97)) fields.push_back(Field("standings", Standings()));
    if (Chance(0.15)) fields.push_back(Field("weight", NumberValue()));
    if (Chance(0.2)) fields.push_back(Field("task", StringValue()));
    if (Chance(0.03)) {
      fields.push_back(
          Field(Pick({"winner", "Pool", "game-id", "GameId", "eventtime", "standing", "pool ", ""}),
                Pick({"1", "\"x\"", "{\"a\":[1,{}]}"})));
    }
    if (Chance(0.03) && !fields.empty()) fields.push_back(fields[Below(fields.size())]);
    std::shuffle(fields.begin(), fields.end(), rng_);
    std::string line = absl::StrCat("{", absl::StrJoin(fields, Chance(0.1) ? " , " : ","), "}");
    if (Chance(0.1)) line = Pick({" ", "\t", "  "}) + line + Pick({" ", "\t", "\r", " \r"});
    if (Chance(0.06)) line = Mangle(line);
    return line;
  }

  // An RFC 3339-like timestamp, valid or not (fields out of range, short or long widths,
  // offsets, fractions of 0 to 11 digits, lower-case letters).
  std::string Timestamp() {
    auto number = [&](int low, int high, int width) {
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "%0*d", Chance(0.03) ? 1 : width,
                    low + static_cast<int>(Below(static_cast<size_t>(high - low + 1))));
      return std::string(buffer);
    };
    // One draw after another, in a fixed order, so that a seed gives the same timestamps.
    const int year_low = Chance(0.2) ? (Chance(0.5) ? 0 : 1) : 1990;
    const int year_high = Chance(0.2) ? (Chance(0.5) ? 10000 : 9999) : 2030;
    std::string text = number(year_low, year_high, 4);
    text += "-";
    text += number(Chance(0.05) ? 0 : 1, Chance(0.05) ? 13 : 12, 2);
    text += "-";
    text += number(Chance(0.05) ? 0 : 1, Chance(0.05) ? 32 : 31, 2);
    text += Chance(0.02) ? "t" : "T";
    text += number(0, Chance(0.05) ? 24 : 23, 2);
    text += ":";
    text += number(0, Chance(0.05) ? 60 : 59, 2);
    text += ":";
    text += number(0, Chance(0.05) ? 60 : 59, 2);
    if (Chance(0.4)) {
      text += ".";
      for (size_t i = Below(12); i > 0; --i) text += static_cast<char>('0' + Below(10));
    }
    if (Chance(0.6)) return text + (Chance(0.02) ? "z" : "Z");
    text += Pick({"+", "-"});
    text += number(0, Chance(0.1) ? 24 : 23, 2);
    text += ":";
    text += number(0, Chance(0.1) ? 60 : 59, 2);
    return text;
  }

 private:
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  std::string Pick(const std::vector<std::string>& choices) {
    return choices[Below(choices.size())];
  }
  std::string Field(const std::string& key, const std::string& value) {
    return absl::StrCat("\"", key, "\"", Chance(0.1) ? " : " : ":", value);
  }

  std::string WrongType() { return Pick({"1", "1.5", "true", "null", "[]", "{}", "[\"a\"]"}); }

  std::string StringValue() {
    if (Chance(0.02)) return WrongType();
    if (Chance(0.85)) return Pick({"\"go\"", "\"g1\"", "\"4155d7ef28dd37eb\""});
    if (Chance(0.05)) return absl::StrCat("\"", std::string(300, 'x'), "\"");  // over the limit
    // Escapes, unicode (raw and escaped), unpaired surrogates, escapes JSON lacks, single
    // quotes (protobuf takes them), a raw tab (which JSON forbids).
    return Pick({"\"\"", "\"caf\\u00e9\"", "\"café\"", "\"日本語\"", "\"\\ud83d\\ude00\"", "\"😀\"",
                 "\"a\\\"b\\\\c\\/d\"", "\"\\b\\f\\n\\r\\t\"", "\"\\u0000\"", "\"\\ud800\"",
                 "\"\\udc00x\"", "\"\\ud800\\u0041\"", "\"\\v\"", "\"\\x41\"", "'single'",
                 "\"A\\u0042C\"", "\"tab\tinside\""});
  }

  std::string AgentValue() {
    if (Chance(0.93)) return absl::StrCat("\"agent-", Below(40), "\"");
    return StringValue();
  }

  std::string RankValue() {
    if (Chance(0.9)) return absl::StrCat(1 + Below(3));
    return Pick({"0", "-0", "-1", "1.0", "1e0", "1E2", "1.5", "4294967295", "4294967296",
                 "18446744073709551615", "18446744073709551616", "\"1\"", "\"x\"", "null", "true",
                 "01", "-0.0", "2e9", "[1]"});
  }

  std::string NumberValue() {
    if (Chance(0.3)) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.*g", static_cast<int>(1 + Below(17)),
                    std::uniform_real_distribution<double>(-1e6, 1e6)(rng_));
      return buffer;
    }
    if (Chance(0.2)) {  // many digits and a wide exponent: correct rounding matters
      std::string digits = absl::StrCat(Below(10), ".");
      for (size_t i = 1 + Below(30); i > 0; --i) digits += static_cast<char>('0' + Below(10));
      return absl::StrCat(Chance(0.3) ? "-" : "", digits, "e", static_cast<int>(Below(660)) - 340);
    }
    if (Chance(0.1)) {  // halfway between two doubles, and more digits than a double holds
      return Pick({"1.00000000000000011102230246251565404236316680908203125",
                   "3.141592653589793238462643383279", "123456789012345678901234567890"});
    }
    if (Chance(0.3)) {  // not numbers, or not in JSON's syntax
      return Pick({"\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"1.5\"", "\"abc\"", "01", "1.",
                   ".5", "+1", "0x10", "1e", "-", "NaN", "null", "true"});
    }
    if (Chance(0.5)) {  // at the ends of double's range, and past them
      return Pick({"1e-400", "1e400", "-1e400", "1.7976931348623157e308", "4.9e-324",
                   "2.4703282292062327e-324", "2.4703282292062328e-324"});
    }
    if (Chance(0.5)) {  // integers around 2^53, 2^63 and 2^64
      return Pick({"9007199254740992", "9007199254740993", "-9007199254740993",
                   "18446744073709551615", "18446744073709551616", "-9223372036854775808",
                   "-9223372036854775809"});
    }
    return Pick({"0", "-0", "0.0", "-0.0", "1", "2", "0.5", "-1.25", "1e0", "1E-2", "0.1"});
  }

  std::string TimeValue() {
    if (Chance(0.05)) return Pick({"1700000000", "{\"seconds\":1}", "null", "\"\""});
    if (Chance(0.1)) {
      return Pick({"\"2024-02-29T12:00:00Z\"", "\"2023-02-29T00:00:00Z\"",
                   "\"2023-11-14T22:13:20.123456789Z\"", "\"2023-11-14T22:13:20.1234567890Z\"",
                   "\"2023-11-14T22:13:20+05:30\"", "\"2023-11-14T22:13:20-00:00\"",
                   "\"0001-01-01T00:00:00Z\"", "\"0001-01-01T00:00:00+01:00\"",
                   "\"0001-01-01T00:00:00-01:00\"", "\"9999-12-31T23:59:59Z\"",
                   "\"9999-12-31T23:59:59-01:00\"", "\"9999-12-31T23:59:59+01:00\"",
                   "\"2023-1-01T00:00:00Z\"", "\" 2023-11-14T22:13:20Z\"",
                   "\"2023-11-14T22:13:20Z \"", "\"2023-11-14 22:13:20Z\"",
                   "\"2023-11-14T22:13:20\"", "\"2023-11-14T22:13:20\\u005a\"",
                   "\"2023-11-14T22:13:20Z\\u0000x\""});
    }
    return absl::StrCat("\"", Timestamp(), "\"");
  }

  std::string Standing() {
    if (Chance(0.02)) return Pick({"null", "1", "[]", "\"a\"", "[{}]"});
    std::vector<std::string> fields;
    if (Chance(0.97)) fields.push_back(Field("agent", AgentValue()));
    if (Chance(0.97)) fields.push_back(Field("rank", RankValue()));
    if (Chance(0.3)) fields.push_back(Field("score", NumberValue()));
    if (Chance(0.02)) fields.push_back(Field(Pick({"Agent", "name", "rank ", "score2"}), "1"));
    if (Chance(0.02) && !fields.empty()) fields.push_back(fields[Below(fields.size())]);
    std::shuffle(fields.begin(), fields.end(), rng_);
    return absl::StrCat("{", absl::StrJoin(fields, ","), "}");
  }

  std::string Standings() {
    if (Chance(0.02)) return Pick({"null", "{}", "\"a\"", "1"});
    std::vector<std::string> items;
    const size_t count = Chance(0.9) ? 2 : Below(5);
    for (size_t i = 0; i < count; ++i) items.push_back(Standing());
    return absl::StrCat("[", absl::StrJoin(items, Chance(0.1) ? ", " : ","), "]");
  }

  // JSON that simdjson refuses or reads differently from protobuf's lenient parser.
  std::string Mangle(std::string line) {
    switch (Below(10)) {
      case 0:
        return line.substr(0, Below(line.size() + 1));  // truncated
      case 1:
        return line.substr(0, line.size() - 1) + ",}";  // trailing comma
      case 2:
        return absl::StrCat("\xEF\xBB\xBF", line);  // byte-order mark
      case 3:
        return absl::StrCat("\f", line);  // whitespace for protobuf, not for JSON
      case 4:
        return absl::StrCat("[", line, "]");
      case 5:
        return line + " x";
      case 6:
        return Pick({"{}", "null", "123", "\"s\"", "{pool:\"p\"}", "{'pool':'p'}"});
      case 7: {  // invalid UTF-8 somewhere
        line.insert(Below(line.size() + 1), Pick({"\xff", "\xc3", "\xed\xa0\x80"}));
        return line;
      }
      case 8:
        return line + "\v";
      default:
        return line + line;
    }
  }

  std::mt19937 rng_;
};

// Each generated line on its own, then the lines in blocks (the first error wins; blank
// lines and CRLF between them).
TEST(JsonlFastTest, GeneratedLinesReadAsByProtobuf) {
  LineGenerator generator(20261126);
  FastGameResultReader fast;
  int taken = 0, records = 0, errors = 0;
  std::vector<std::string> lines;
  for (int i = 0; i < 30000; ++i) {
    const std::string line = generator.Line();
    lines.push_back(line);
    const absl::StatusOr<ReadOutput> expected =
        ReferenceParseJsonl(line, "g.jsonl", ResultLimits());
    ASSERT_TRUE(SameOutput(ParseJsonl(line, "g.jsonl", ResultLimits()), expected)) << line;
    (expected.ok() ? records : errors) += 1;
    // The fast path's own contract: a line it takes, protobuf accepts, with the same record.
    ResultRecord record;
    if (!fast.Read(line, record)) continue;
    ++taken;
    ratingd::v1::GameResult message;
    ASSERT_THAT(ProtobufJsonToMessage(line, &message), IsOk()) << line;
    ASSERT_EQ(RecordDifference(record, RecordFromProto(message)), "") << line;
  }
  // Each kind amply exercised (11198, 11056 and 18944 with libstdc++ 12).
  EXPECT_GT(taken, 9000);
  EXPECT_GT(records, 8000);
  EXPECT_GT(errors, 8000);

  for (size_t start = 0; start + 10 <= lines.size(); start += 10) {
    std::string block;
    for (size_t i = start; i < start + 10; ++i) {
      block += lines[i] + (i % 3 == 0 ? "\r\n" : "\n") + (i % 4 == 0 ? "\n  \n" : "");
    }
    ASSERT_TRUE(SameOutput(ParseJsonl(block, "b.jsonl", ResultLimits()),
                           ReferenceParseJsonl(block, "b.jsonl", ResultLimits())))
        << block;
  }
}

// Tight limits: the shared checks see the fast path's records too.
TEST(JsonlFastTest, GeneratedLinesUnderSmallLimits) {
  ResultLimits limits;
  limits.max_standings = 2;
  limits.max_agent_id_bytes = 6;
  LineGenerator generator(7);
  for (int i = 0; i < 3000; ++i) {
    const std::string line = generator.Line();
    ASSERT_TRUE(SameOutput(ParseJsonl(line, "s.jsonl", limits),
                           ReferenceParseJsonl(line, "s.jsonl", limits)))
        << line;
  }
}

// The lines that make up real files take the fast path (else it would not be fast).
TEST(JsonlFastTest, PlainLinesTakeTheFastPath) {
  const char* const lines[] = {
      R"({"pool":"go","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})",
      R"({"pool":"go","game_id":"g2","event_time":"2023-11-14T22:13:20Z","task":"t","weight":0.5,)"
      R"("standings":[{"agent":"a","rank":2,"score":3.5},{"agent":"b","rank":1,"score":-1e3}]})",
      R"( { "eventTime" : "2023-11-14T22:13:20.123+05:30", "pool" : "p\"q", "gameId" : "g",)"
      R"( "standings" : [ { "rank" : 1, "agent" : "caf\u00e9" }, {"agent":"日本","rank":3} ] } )",
      R"({"pool":"p","gameId":"g","standings":[],"weight":2})",
      R"({})",
  };
  FastGameResultReader fast;
  for (const char* line : lines) {
    ResultRecord record;
    EXPECT_TRUE(fast.Read(line, record)) << line;
  }
}

// Event times by hand: 2023-11-14T22:13:20Z is 1,700,000,000 s after the epoch; the local
// time 22:13:20.123 at +05:30 is 19,800 s earlier in UTC, at -00:30 1,800 s later.
TEST(JsonlFastTest, EventTimesAreTheInstantsTheyName) {
  const std::string standings = R"("standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}])";
  const std::pair<std::string, absl::Time> cases[] = {
      {"2023-11-14T22:13:20Z", absl::FromUnixSeconds(1'700'000'000)},
      {"2023-11-14T22:13:20.123+05:30",
       absl::FromUnixSeconds(1'700'000'000 - 19'800) + absl::Milliseconds(123)},
      {"2023-11-14T22:13:20.000000007-00:30",
       absl::FromUnixSeconds(1'700'000'000 + 1'800) + absl::Nanoseconds(7)},
      {"1969-12-31T23:59:59.5Z", absl::FromUnixMillis(-500)},
  };
  FastGameResultReader fast;
  for (const auto& [text, expected] : cases) {
    const std::string line =
        absl::StrCat(R"({"pool":"p","gameId":"g","eventTime":")", text, "\",", standings, "}");
    ResultRecord record;
    ASSERT_TRUE(fast.Read(line, record)) << line;
    EXPECT_EQ(record.event_time, expected) << text;
    ratingd::v1::GameResult message;
    ASSERT_THAT(ProtobufJsonToMessage(line, &message), IsOk());
    EXPECT_EQ(RecordFromProto(message).event_time, expected) << text;
  }
}

// What the fast path leaves to protobuf, even where protobuf accepts the line.
TEST(JsonlFastTest, OtherLinesGoToProtobuf) {
  const std::string standings = R"("standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}])";
  const std::string cases[] = {
      R"({"pool":"p","gameId":"g","winner":"a",)" + standings + "}",          // unknown field
      R"({"pool":"p","gameId":"g","game_id":"h",)" + standings + "}",         // a field twice
      R"({"pool":"p","gameId":"g","task":null,)" + standings + "}",           // null
      R"({"pool":"p","gameId":"g","standings":[{"agent":"a","rank":"1"}]})",  // rank as a string
      R"({"pool":"p","gameId":"g","standings":[{"agent":"a","rank":1.0}]})",  // rank as a double
      R"({"pool":"p","gameId":"g","weight":9007199254740993,)" + standings + "}",  // beyond 2^53
      R"({"pool":"p","gameId":"g","weight":"NaN",)" + standings + "}",
      R"({"pool":"p","gameId":"g","eventTime":"2023-1-01T00:00:00Z",)" + standings + "}",
      R"({"pool":"p","gameId":"g","eventTime":"2023-11-14T22:13:20.1234567890Z",)" + standings +
          "}",
      R"({"pool":"p","gameId":"g",)" + standings + ",}",  // a trailing comma
      "[]",
  };
  FastGameResultReader fast;
  for (const std::string& line : cases) {
    ResultRecord record;
    EXPECT_FALSE(fast.Read(line, record)) << line;
    EXPECT_TRUE(SameOutput(ParseJsonl(line, "o.jsonl", ResultLimits()),
                           ReferenceParseJsonl(line, "o.jsonl", ResultLimits())))
        << line;
  }
}

// Every timestamp the fast path accepts, protobuf accepts as well.
TEST(JsonlFastTest, PlainTimestampsAreAcceptedByProtobuf) {
  LineGenerator generator(3);
  int plain = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::string text = generator.Timestamp();
    if (!IsPlainTimestamp(text)) continue;
    ++plain;
    ratingd::v1::GameResult message;
    ASSERT_THAT(ProtobufJsonToMessage(absl::StrCat(R"({"eventTime":")", text, "\"}"), &message),
                IsOk())
        << text;
  }
  EXPECT_GT(plain, 10000);
  for (const char* text : {"2024-02-29T23:59:59Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
                           "2023-11-14T22:13:20.5-08:00", "0001-01-01T00:00:00+00:00"}) {
    EXPECT_TRUE(IsPlainTimestamp(text)) << text;
  }
  for (const char* text : {"2023-02-29T00:00:00Z", "2023-11-14T24:00:00Z", "2023-11-14T23:59:60Z",
                           "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00",
                           "2023-11-14T22:13:20z", "2023-11-14T22:13:20.Z", ""}) {
    EXPECT_FALSE(IsPlainTimestamp(text)) << text;
  }
}

// Two records a line, lines of both paths, blank lines and CRLF; more than kParallelBytes,
// so read in two halves on two threads: the same records and lines as one pass, and the
// first error in file order wherever the errors are.
TEST(JsonlFastTest, LargeInputReadAsInOnePass) {
  std::string content;
  int lines = 0;
  while (content.size() < kParallelBytes + (kParallelBytes >> 1)) {
    ++lines;
    if (lines % 500 == 0) {
      content += lines % 1000 == 0 ? "\n" : " \r\n";
      continue;
    }
    // Every 7th line in a form only protobuf reads (a rank as a string).
    const std::string rank = lines % 7 == 0 ? "\"2\"" : "2";
    absl::StrAppend(&content, R"({"pool":"p","gameId":"g)", lines,
                    R"(","eventTime":"2023-11-14T22:13:20Z","standings":[{"agent":"a)", lines % 13,
                    R"(","rank":1,"score":)", lines * 0.25, R"(},{"agent":"b","rank":)", rank,
                    "}]}", lines % 3 == 0 ? "\r\n" : "\n");
  }
  const absl::StatusOr<ReadOutput> expected =
      ReferenceParseJsonl(content, "big.jsonl", ResultLimits());
  ASSERT_THAT(expected, IsOk());
  ASSERT_GT(expected->records.size(), 10000u);
  EXPECT_TRUE(SameOutput(ParseJsonl(content, "big.jsonl", ResultLimits()), expected));

  // An error late in the file (second half), then one early as well (first half).
  std::string late = content;
  late.replace(late.rfind(R"("agent":"b")"), 11, R"("agent":"")");
  std::string both = late;
  both.replace(both.find(R"("rank":1)"), 8, R"("rank":0)");
  for (const std::string* text : {&late, &both}) {
    const absl::StatusOr<ReadOutput> reference =
        ReferenceParseJsonl(*text, "big.jsonl", ResultLimits());
    ASSERT_FALSE(reference.ok());
    EXPECT_EQ(absl::StartsWith(reference.status().message(), "big.jsonl:1: "), text == &both);
    EXPECT_TRUE(SameOutput(ParseJsonl(*text, "big.jsonl", ResultLimits()), reference));
  }
}

// The split itself: at the first line end from the middle, the second half numbered on.
TEST(JsonlFastTest, HalvesSplitAtALineEnd) {
  std::string content(kParallelBytes, 'x');
  content[kParallelBytes / 2 + 10] = '\n';
  content[kParallelBytes / 2 + 20] = '\n';
  content[100] = '\n';
  std::vector<std::pair<std::string, int64_t>> calls(2);
  const absl::StatusOr<ReadOutput> out =
      ParseLinesInHalves(content, [&](absl::string_view part, int64_t first_line, ReadOutput&) {
        calls[first_line == 1 ? 0 : 1] = {std::string(part), first_line};
        return absl::OkStatus();
      });
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(calls[0].first, content.substr(0, kParallelBytes / 2 + 10));
  EXPECT_EQ(calls[1].first, content.substr(kParallelBytes / 2 + 11));
  EXPECT_EQ(calls[1].second, 3);
}

}  // namespace
}  // namespace ratings::io
