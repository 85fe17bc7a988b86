#include "daemon/ratingctl/eval.h"

#include <string>

#include "daemon/deterministic_json.h"
#include "daemon/ratingctl/generate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_files.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::ratings::testing::WriteTemp;
using ::testing::HasSubstr;

std::string Vote(int id, const std::string& a, const std::string& b, const std::string& c) {
  return R"({"pool":"p","gameId":")" + std::to_string(id) + R"(","standings":[{"agent":")" + a +
         R"(","rank":1},{"agent":")" + b + R"(","rank":2},{"agent":")" + c + R"(","rank":3}]})" +
         "\n";
}

// SCO §4.1 Eq. (10): 2: A>B>C, 3: C>A>B.
std::string PaperExample() {
  static const std::string path = WriteTemp(
      "eq10.jsonl", Vote(1, "A", "B", "C") + Vote(2, "A", "B", "C") + Vote(3, "C", "A", "B") +
                        Vote(4, "C", "A", "B") + Vote(5, "C", "A", "B"));
  return path;
}

double Num(const google::protobuf::Struct& s, const std::string& a, const std::string& b = "") {
  const auto& v = s.fields().at(a);
  return b.empty() ? v.number_value() : v.struct_value().fields().at(b).number_value();
}

// The ranking A > B > C against the truth C > A > B, by hand: discordant pairs (A,C) and
// (B,C): KTD 2, K_n 2/3. k = 2: top-2 {A,B} vs {C,A}: IDE 1/2; alpha(2) = 1/2; the truth's
// top 2 in the ranking's order A > C vs C > A: K_n 1; GRE = 1/4 + 1/2 = 3/4. Its mean
// distance to the five results (Fig. 1 of the SCO paper counts it per vote): A>B>C 0 twice,
// C>A>B 2 three times: 6/5.
TEST(EvalCommandTest, RankingAgainstTruthAndResultsByHand) {
  const std::string ranking = WriteTemp("abc.txt", "# best first\nA\nB\nC\n");
  const std::string truth = WriteTemp("cab.txt", "C\nA\nB\n");
  auto doc = RunEval({.input = PaperExample(), .ranking = ranking, .truth = truth, .k = 2});
  ASSERT_THAT(doc, IsOk()) << doc.status();
  EXPECT_EQ(doc->fields().at("condorcet_winner").string_value(), "C");
  const auto& r = doc->fields().at("ranking").struct_value();
  EXPECT_EQ(r.fields().at("top").string_value(), "A");
  EXPECT_FALSE(r.fields().at("top_is_condorcet_winner").bool_value());
  EXPECT_DOUBLE_EQ(Num(r, "ktd_to_results_mean"), 6.0 / 5);
  const auto& t = doc->fields().at("truth").struct_value();
  EXPECT_EQ(Num(t, "ktd"), 2);
  EXPECT_DOUBLE_EQ(Num(t, "ktd_normalised"), 2.0 / 3);
  EXPECT_EQ(Num(t, "k"), 2);
  EXPECT_DOUBLE_EQ(Num(t, "identification_error"), 0.5);
  EXPECT_DOUBLE_EQ(Num(t, "gre"), 0.75);
}

// SCO Def. 1 subset form: the truth holds an agent D the results never mention; the KTD
// counts only the ranking's three agents.
TEST(EvalCommandTest, SubsetFormAgainstALargerTruth) {
  const std::string ranking = WriteTemp("abc2.txt", "A\nB\nC\n");
  const std::string truth = WriteTemp("cdab.txt", "C\nD\nA\nB\n");
  auto doc = RunEval({.input = PaperExample(), .ranking = ranking, .truth = truth});
  ASSERT_THAT(doc, IsOk()) << doc.status();
  const auto& t = doc->fields().at("truth").struct_value();
  EXPECT_EQ(Num(t, "ktd"), 2);
  EXPECT_EQ(Num(t, "agents_compared"), 3);
  EXPECT_EQ(Num(t, "agents"), 4);
}

// The method route: sco-batch on Eq. (10) ranks C > A > B (SCO §4.1): KTD 0 to that truth,
// top is the Condorcet winner, mean distance to the results 4/5 (the Kemeny optimum, Fig. 1).
TEST(EvalCommandTest, MethodRankingAndRateJsonRanking) {
  const std::string truth =
      WriteTemp("truth.json", R"({"generator":"hand","ranking":["C","A","B"]})");
  auto doc = RunEval({.input = PaperExample(),
                      .method = "sco-batch",
                      .truth = truth,
                      .params = {"alpha=0.1", "batch=2", "iterations=2000"},
                      .agre_steps = 2});
  ASSERT_THAT(doc, IsOk()) << doc.status();
  const auto& r = doc->fields().at("ranking").struct_value();
  EXPECT_TRUE(r.fields().at("top_is_condorcet_winner").bool_value());
  EXPECT_DOUBLE_EQ(Num(r, "ktd_to_results_mean"), 4.0 / 5);
  EXPECT_EQ(Num(doc->fields().at("truth").struct_value(), "ktd"), 0);
  EXPECT_TRUE(doc->fields().at("truth").struct_value().fields().contains("agre"));
  // A `ratingctl rate` report as the ranking file.
  const std::string report = WriteTemp(
      "report.json",
      R"({"method":"x","ranking":[{"rank":1,"agent":"C","rating":3},{"rank":2,"agent":"A"},)"
      R"({"rank":3,"agent":"B"}]})");
  auto again = RunEval({.input = PaperExample(), .ranking = report, .truth = truth});
  ASSERT_THAT(again, IsOk()) << again.status();
  EXPECT_EQ(Num(again->fields().at("truth").struct_value(), "ktd"), 0);
}

TEST(EvalCommandTest, HeldOutKtdTestForSeveralMethods) {
  const std::string data = ::testing::TempDir() + "heldout.jsonl";
  ASSERT_THAT(RunGenerate({.model = "tournament",
                           .output = data,
                           .params = {"contests=200", "agents=12"},
                           .seed = 4}),
              IsOk());
  const EvalConfig config = {.input = data,
                             .params = {"sco-batch:iterations=300"},
                             .methods = {"elo", "sco-batch", "elo-bt"},
                             .splits = 3,
                             .seed = 2};
  auto doc = RunEval(config);
  ASSERT_THAT(doc, IsOk()) << doc.status();
  const auto& held = doc->fields().at("held_out").struct_value();
  EXPECT_EQ(held.fields().at("test_results").list_value().values_size(), 3);
  for (const auto& v : held.fields().at("test_results").list_value().values()) {
    EXPECT_GT(v.number_value(), 0);
    EXPECT_LE(v.number_value(), 20);  // 10% of 200
  }
  for (const std::string method : {"elo", "sco-batch", "elo-bt"}) {
    const auto& m = held.fields().at("methods").struct_value().fields().at(method).struct_value();
    EXPECT_EQ(m.fields().at("ktd_test").list_value().values_size(), 3);
    const double mean = Num(m, "ktd_test_mean");
    EXPECT_GE(mean, 0);
    EXPECT_LE(mean, 6);  // a 4-player result has 6 pairs
  }
  EXPECT_EQ(*DeterministicJson(*doc), *DeterministicJson(*RunEval(config)));
}

TEST(EvalCommandTest, ErrorsNameTheFileAndProblem) {
  const std::string truth = WriteTemp("t.txt", "A\nB\n");
  const std::string ranking = WriteTemp("r.txt", "A\nB\nC\n");
  EXPECT_THAT(RunEval({.input = PaperExample(), .ranking = ranking, .truth = truth}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("the ranking holds agents the truth does not")));
  const std::string twice = WriteTemp("twice.txt", "A\nB\nA\n");
  EXPECT_THAT(RunEval({.input = PaperExample(), .ranking = twice}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("appears twice")));
  EXPECT_THAT(RunEval({.input = PaperExample(), .ranking = "/nonexistent/r.txt"}).status(),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("/nonexistent/r.txt")));
  const std::string short_ranking = WriteTemp("ab.txt", "A\nB\n");
  EXPECT_THAT(RunEval({.input = PaperExample(), .ranking = short_ranking}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("does not rank every")));
  const std::string bad_json = WriteTemp("bad.json", R"({"ranking": 3})");
  EXPECT_THAT(RunEval({.input = PaperExample(), .ranking = bad_json}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no \"ranking\" list")));
  EXPECT_THAT(RunEval({.input = PaperExample(), .methods = {"nope"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unknown method")));
  EXPECT_THAT(RunEval({.input = PaperExample(), .k = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--k")));
}

}  // namespace
}  // namespace ratingd
