#include "daemon/methods/batch_methods.h"

#include <cmath>
#include <string>

#include "daemon/methods/read_input.h"
#include "daemon/methods/report_text.h"
#include "daemon/methods/run_rate.h"
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
using ::testing::UnorderedElementsAre;

const std::string kData = RATINGD_TEST_DATA;

std::string Game(const std::string& id, const std::string& first, const std::string& second) {
  return R"({"pool":"p","gameId":")" + id + R"(","standings":[{"agent":")" + first +
         R"(","rank":1},{"agent":")" + second + R"(","rank":2}]})" + "\n";
}

std::vector<std::string> Keys(const google::protobuf::Struct& s) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : s.fields()) keys.push_back(k);
  return keys;
}

// Closed form (Zermelo/Hunter): a beat b 3 times, lost once; prior 0: 400 log10(3) apart
// around the anchor.
TEST(BatchMethodsTest, EloBtOnJsonlMatchesTheClosedForm) {
  const std::string path = WriteTemp("bt.jsonl", Game("1", "a", "b") + Game("2", "a", "b") +
                                                     Game("3", "b", "a") + Game("4", "a", "b"));
  auto report = RunRate({.method = "elo-bt", .input = path, .params = {"prior=0"}});
  ASSERT_THAT(report, IsOk()) << report.status();
  EXPECT_EQ(report->results(), 4u);
  EXPECT_EQ(report->ranking(0).agent(), "a");
  EXPECT_NEAR(report->ranking(0).rating() - report->ranking(1).rating(), 400 * std::log10(3.0),
              1e-3);
  EXPECT_NEAR(report->ranking(0).rating() + report->ranking(1).rating(), 3000, 1e-3);
  const auto& extra = report->extra().fields();
  EXPECT_EQ(extra.at("variant").string_value(), "mm");
  EXPECT_EQ(extra.at("pairs").number_value(), 1);
  EXPECT_TRUE(extra.at("converged").bool_value());
  EXPECT_THAT(Keys(extra.at("params").struct_value()),
              UnorderedElementsAre("prior", "accelerate", "anchor", "tolerance", "max_iterations",
                                   "permutations", "k", "initial", "ci", "rounds", "ties"));
  EXPECT_EQ(extra.at("params").struct_value().fields().at("prior").number_value(), 0);
}

TEST(BatchMethodsTest, EveryEffectiveParamIsReported) {
  const std::string path = WriteTemp("p.jsonl", Game("1", "a", "b"));
  auto sco = RunRate({.method = "sco-batch", .input = path, .params = {"batch=4"}, .seed = 3});
  ASSERT_THAT(sco, IsOk()) << sco.status();
  const auto& params = sco->extra().fields().at("params").struct_value();
  EXPECT_THAT(Keys(params), UnorderedElementsAre("batch", "iterations", "alpha", "tau", "min",
                                                 "max", "ci", "rounds"));
  EXPECT_EQ(params.fields().at("batch").number_value(), 4);
  EXPECT_EQ(params.fields().at("iterations").number_value(), 10000);
  EXPECT_EQ(params.fields().at("alpha").number_value(), 0.01);
  EXPECT_EQ(sco->extra().fields().at("seed").number_value(), 3);
  auto fy = RunRate({.method = "sco-fy", .input = path});
  ASSERT_THAT(fy, IsOk()) << fy.status();
  EXPECT_THAT(
      Keys(fy->extra().fields().at("params").struct_value()),
      UnorderedElementsAre("batch", "iterations", "alpha", "epsilon", "samples", "min", "max"));
}

// The Rainbow table ([VasE]): Rainbow is the strong Condorcet
// winner; SCO top-ranks Condorcet winners ([SCO] Theorem 1) and so does the BT fit here.
TEST(BatchMethodsTest, EveryMethodOnEveryFormat) {
  for (const std::string method : {"elo-bt", "sco-batch", "sco-fy"}) {
    auto atari = RunRate({.method = method, .input = kData + "/atari/atari_rainbow_table6.txt"});
    ASSERT_THAT(atari, IsOk()) << method << ": " << atari.status();
    EXPECT_EQ(atari->agents(), 8u);
    if (method != "sco-fy") {
      EXPECT_EQ(atari->ranking(0).agent(), "rainbow") << method;
    }
    auto preflib = RunRate({.method = method, .input = kData + "/preflib/00016-00000002.toi"});
    ASSERT_THAT(preflib, IsOk()) << method << ": " << preflib.status();
    EXPECT_GT(preflib->ranking_size(), 2);
  }
}

TEST(BatchMethodsTest, PermutationVariantOfEloBt) {
  const std::string path = WriteTemp("perm.jsonl", Game("1", "a", "b") + Game("2", "b", "a"));
  auto report = RunRate({.method = "elo-bt", .input = path, .params = {"permutations=50"}});
  ASSERT_THAT(report, IsOk()) << report.status();
  EXPECT_EQ(report->extra().fields().at("variant").string_value(), "permutations");
  // Zero-sum online Elo, averaged: the total stays 2 x 1500.
  EXPECT_NEAR(report->ranking(0).rating() + report->ranking(1).rating(), 3000, 1e-9);
}

TEST(BatchMethodsTest, SeedsAreDeterministic) {
  const std::string path =
      WriteTemp("seed.jsonl", Game("1", "a", "b") + Game("2", "b", "c") + Game("3", "c", "a"));
  auto run = [&](uint64_t seed) {
    auto r =
        RunRate({.method = "sco-batch", .input = path, .params = {"iterations=100"}, .seed = seed});
    return r->ranking(0).rating();
  };
  EXPECT_EQ(run(1), run(1));
  EXPECT_NE(run(1), run(2));
}

TEST(BatchMethodsTest, BadParamsNameTheParameter) {
  const std::string path = WriteTemp("bad.jsonl", Game("1", "a", "b"));
  EXPECT_THAT(RunRate({.method = "sco-batch", .input = path, .params = {"batch=x"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--param batch (sco-batch): 'x' is not an integer")));
  EXPECT_THAT(RunRate({.method = "sco-fy", .input = path, .params = {"tau=1"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown parameter 'tau' for method sco-fy; known: batch")));
  EXPECT_THAT(RunRate({.method = "sco-batch", .input = path, .params = {"batch=0"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("batch must be >= 1")));
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = path, .params = {"prior"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("expected key=value")));
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = path, .params = {"permutations=-1"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("permutations")));
  // Options of the variant not run are still checked.
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = path, .params = {"permutations=5", "prior=-1"}})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("prior")));
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = path, .params = {"k=-1"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
  // prior = 0 with an unbeaten agent: the MLE does not exist.
  EXPECT_THAT(RunRate({.method = "elo-bt", .input = path, .params = {"prior=0"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("strongly connected")));
}

// RateRecords on in-memory records gives what RunRate gives on the file.
TEST(BatchMethodsTest, RateRecordsEqualsRunRate) {
  const std::string path =
      WriteTemp("same.jsonl", Game("1", "a", "b") + Game("2", "b", "c") + Game("3", "a", "c"));
  const RateConfig config = {.method = "sco-batch", .input = path, .params = {"iterations=50"}};
  auto records = ReadPoolRecords(config);
  ASSERT_THAT(records, IsOk());
  auto from_memory = RateRecords(config, records->records, records->skipped_votes);
  auto from_file = RunRate(config);
  ASSERT_THAT(from_memory, IsOk());
  ASSERT_THAT(from_file, IsOk());
  EXPECT_EQ(*ReportToJson(*from_memory), *ReportToJson(*from_file));
}

}  // namespace
}  // namespace ratingd
