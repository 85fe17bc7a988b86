#include "daemon/ratingctl/generate.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/read_results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

TEST(GenerateCommandTest, SameSeedSameBytesOtherSeedOtherBytes) {
  for (const std::string& model : GeneratorNames()) {
    GenerateConfig config = {.model = model, .seed = 7};
    if (model == "bernoulli") config.params = {"pairs=A>B:0.6,B>C:0.55", "games=50"};
    auto a = Generate(config);
    auto b = Generate(config);
    ASSERT_THAT(a, IsOk()) << model << ": " << a.status();
    ASSERT_THAT(b, IsOk()) << model << ": " << b.status();
    EXPECT_EQ(a->jsonl, b->jsonl) << model;
    EXPECT_EQ(a->truth_json, b->truth_json) << model;
    if (model != "cycle") {  // the cycle has no randomness
      GenerateConfig other = config;
      other.seed = 8;
      EXPECT_NE(Generate(other)->jsonl, a->jsonl) << model;
    }
  }
}

TEST(GenerateCommandTest, TruthPathReplacesTheExtension) {
  EXPECT_EQ(TruthPath("out/x.jsonl"), "out/x.truth.json");
  EXPECT_EQ(TruthPath("a.b/c"), "a.b/c.truth.json");
}

// The readers accept the output, and Mallows with dispersion 0 reproduces the truth in
// every task ([AE] §3.2.1).
TEST(GenerateCommandTest, ReadersAcceptTheOutputAndDispersionZeroIsTheTruth) {
  auto files =
      Generate({.model = "mallows", .params = {"dispersion=0", "agents=5", "tasks=4"}, .seed = 3});
  ASSERT_THAT(files, IsOk()) << files.status();
  auto read = ratings::io::ParseJsonl(files->jsonl, "gen.jsonl", ratings::ResultLimits{});
  ASSERT_THAT(read, IsOk()) << read.status();
  ASSERT_EQ(read->records.size(), 4u);
  EXPECT_EQ(read->records[0].task, "task-1");
  EXPECT_EQ(read->records[0].game_id, "mallows-1");
  // The truth's ranking, as printed: ["aX","aY",...].
  for (const auto& record : read->records) {
    std::string order = "\"ranking\":[";
    for (size_t i = 0; i < record.result.standings.size(); ++i) {
      const auto& s = record.result.standings[i];
      EXPECT_EQ(s.rank, i + 1);
      order += (i ? ",\"" : "\"") + s.agent + "\"";
    }
    EXPECT_THAT(files->truth_json, HasSubstr(order + "]"));
  }
  EXPECT_THAT(files->truth_json, HasSubstr(R"("params":{"agents":5,"dispersion":0,"tasks":4})"));
}

TEST(GenerateCommandTest, TournamentTruthHasRatingsAndMatching) {
  auto files = Generate({.model = "tournament", .params = {"matching=skill", "contests=3"}});
  ASSERT_THAT(files, IsOk()) << files.status();
  EXPECT_THAT(files->truth_json, HasSubstr(R"("matching":"skill")"));
  EXPECT_THAT(files->truth_json, HasSubstr(R"("ratings":{"a00":)"));
  std::istringstream lines(files->jsonl);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) ++count;
  EXPECT_EQ(count, 3);
}

TEST(GenerateCommandTest, RunGenerateWritesBothFiles) {
  const std::string out = ::testing::TempDir() + "gen_cycle.jsonl";
  ASSERT_THAT(RunGenerate({.model = "cycle", .output = out}), IsOk());
  std::ifstream jsonl(out), truth(TruthPath(out));
  EXPECT_TRUE(jsonl.good());
  EXPECT_TRUE(truth.good());
}

TEST(GenerateCommandTest, ErrorsNameTheParameter) {
  EXPECT_THAT(Generate({.model = "nope"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unknown generator")));
  EXPECT_THAT(Generate({.model = "mallows", .params = {"phi=1"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown parameter 'phi' for method mallows")));
  EXPECT_THAT(Generate({.model = "mallows", .params = {"agents=x"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--param agents")));
  EXPECT_THAT(Generate({.model = "tournament", .params = {"matching=elo"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--param matching")));
  EXPECT_THAT(Generate({.model = "mallows", .params = {"dispersion=2"}}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("dispersion")));
  EXPECT_THAT(RunGenerate({.model = "cycle", .output = "/nonexistent/dir/x.jsonl"}),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("/nonexistent/dir")));
}

}  // namespace
}  // namespace ratingd
