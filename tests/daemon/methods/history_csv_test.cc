// `ratingctl rate --history FILE.csv` (daemon/methods/history_csv.h): the CSV's lines, the
// thinning at --history-points, and the methods that refuse it. Expected text by hand
// (Elo, K = 32: a beats b from 1500 each, 1516 / 1484).
#include "daemon/methods/history_csv.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "daemon/methods/run_rate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_files.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::ratings::testing::StatusIs;
using ::ratings::testing::WriteTemp;
using ::testing::HasSubstr;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(HistoryCsvTest, OneLinePerPointWithTimesNumbersAndQuotedNames) {
  ratings::PoolOptions options;
  options.sco = options.ml = false;
  ratings::Pool pool = *ratings::Pool::Create(options);
  ratings::PoolHistory history = *ratings::PoolHistory::Create(ratings::Model::kElo, 8);
  const absl::Time t = absl::FromUnixSeconds(1'700'000'000) + absl::Milliseconds(250);
  ASSERT_THAT(pool.Apply(Order({"a", "b"}), t), IsOk());
  history.Record(pool, nullptr, t);
  ASSERT_THAT(pool.Apply(Order({"b", "c,\"d\""})), IsOk());
  history.Record(pool, nullptr, std::nullopt);
  const std::vector<std::string> lines =
      absl::StrSplit(HistoryCsv(history, pool.index()), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "agent,sequence,time,rating,ci_low,ci_high");
  EXPECT_EQ(lines[1], "a,1,2023-11-14T22:13:20.250Z,1516,,");
  EXPECT_EQ(lines[2], "b,1,2023-11-14T22:13:20.250Z,1484,,");
  EXPECT_THAT(lines[3], ::testing::StartsWith("b,2,,1500.7363"));
  EXPECT_THAT(lines[4], ::testing::StartsWith("\"c,\"\"d\"\"\",2,,1483.2636"));
  // Shortest round trip: the printed number parses back to the rating's bits.
  const std::vector<std::string> cells = absl::StrSplit(lines[3], ',');
  EXPECT_EQ(std::stod(cells[3]), pool.elo()->Rating(*pool.index().Find("b")));
}

// a is in all six results; capacity 4 keeps sequences 1, 4, 5, 6 (docs/MODELS.md §11's
// rule by hand: [1 2 3 4] + 5 -> [1 3 4 5]; + 6 -> [1 4 5 6]). With replicas, every point
// has an interval around its rating.
TEST(HistoryCsvTest, RateWritesTheThinnedHistoryOfEveryAgent) {
  std::string jsonl;
  for (int i = 0; i < 6; ++i) {
    jsonl += "{\"pool\":\"p\",\"game_id\":\"g" + std::to_string(i) +
             "\",\"standings\":[{\"agent\":\"a\",\"rank\":1},{\"agent\":\"x" +
             std::to_string(i % 2) + "\",\"rank\":2}]}\n";
  }
  const std::string input = WriteTemp("history.jsonl", jsonl);
  const std::string out = ::testing::TempDir() + "history.csv";
  ASSERT_THAT(RunRate({.method = "elo",
                       .input = input,
                       .bootstrap_replicas = 16,
                       .history = out,
                       .history_points = 4}),
              IsOk());
  std::vector<std::string> a_sequences;
  int lines = 0;
  for (absl::string_view line : absl::StrSplit(ReadAll(out), '\n', absl::SkipEmpty())) {
    if (lines++ == 0) continue;
    const std::vector<std::string> cells = absl::StrSplit(line, ',');
    ASSERT_EQ(cells.size(), 6u) << line;
    if (cells[0] == "a") a_sequences.push_back(cells[1]);
    EXPECT_LE(std::stod(cells[4]), std::stod(cells[3])) << line;
    EXPECT_GE(std::stod(cells[5]), std::stod(cells[3])) << line;
  }
  EXPECT_EQ(a_sequences, (std::vector<std::string>{"1", "4", "5", "6"}));
  EXPECT_EQ(lines, 1 + 4 + 3 + 3);  // header, a, x0 and x1 (three results each)
}

TEST(HistoryCsvTest, OnlyElosScosAndGlicko2sHistoriesAreKept) {
  const std::string input =
      WriteTemp("history-refused.jsonl",
                "{\"pool\":\"p\",\"game_id\":\"g\",\"standings\":[{\"agent\":\"a\",\"rank\":1},"
                "{\"agent\":\"b\",\"rank\":2}]}\n");
  const std::string out = ::testing::TempDir() + "refused.csv";
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = input, .history = out}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--history: only the online models elo, sco and glicko2 keep a history, "
                       "not 'elo-bt'"));
  EXPECT_THAT(
      RunRate({.method = "ml", .input = input, .history = out}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--history: ml has no rating")));
  EXPECT_THAT(RunRate({.method = "glicko2", .input = input, .history = out, .history_points = 2}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at least 4")));
  EXPECT_THAT(RunRate({.method = "glicko2", .input = input, .history = out}), IsOk());
  EXPECT_THAT(ReadAll(out), HasSubstr("\na,1,,1662.3108939"));
}

}  // namespace
}  // namespace ratingd
