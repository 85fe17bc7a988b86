#include "daemon/methods/run_rate.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/methods/method_registry.h"
#include "daemon/methods/read_input.h"
#include "daemon/methods/report_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/records_to_votes.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_files.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::ratings::testing::WriteTemp;
using ::testing::HasSubstr;

const std::string kData = RATINGD_TEST_DATA;

std::map<std::string, const v1::RankedAgent*> ByAgent(const v1::RatingReport& report) {
  std::map<std::string, const v1::RankedAgent*> out;
  for (const auto& r : report.ranking()) out[r.agent()] = &r;
  return out;
}

// Hand-computed (see elo_test.cc): one 2-player game between newcomers, default K.
TEST(RateCommandTest, EloOnJsonl) {
  const std::string path = WriteTemp(
      "two.jsonl",
      R"({"pool":"p","gameId":"g1","standings":[{"agent":"b","rank":2},{"agent":"a","rank":1}]})"
      "\n");
  auto report = RunRate({.method = "elo", .input = path});
  ASSERT_THAT(report, IsOk()) << report.status();
  EXPECT_EQ(report->method(), "elo");
  EXPECT_EQ(report->agents(), 2u);
  EXPECT_EQ(report->results(), 1u);
  ASSERT_EQ(report->ranking_size(), 2);
  EXPECT_EQ(report->ranking(0).agent(), "a");
  EXPECT_EQ(report->ranking(0).rank(), 1u);
  EXPECT_EQ(report->ranking(0).rating(), 1516.0);
  EXPECT_EQ(report->ranking(1).rating(), 1484.0);
  const auto& params = report->extra().fields().at("params").struct_value().fields();
  EXPECT_EQ(params.at("k").number_value(), 32);
  EXPECT_EQ(params.at("initial").number_value(), 1500);
}

TEST(RateCommandTest, ParamsReachTheModel) {
  const std::string path = WriteTemp(
      "params.jsonl",
      R"({"pool":"p","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})"
      "\n");
  auto report = RunRate({.method = "elo", .input = path, .params = {"k=10", "initial=0"}});
  ASSERT_THAT(report, IsOk()) << report.status();
  EXPECT_EQ(report->ranking(0).rating(), 5.0);
}

// [VasE] App.: the pentathlon profile as a PrefLib file.
constexpr char kPentathlon[] =
    "# FILE NAME: pentathlon.soc\n# DATA TYPE: soc\n# NUMBER ALTERNATIVES: 3\n"
    "# NUMBER VOTERS: 5\n# NUMBER UNIQUE ORDERS: 4\n"
    "# ALTERNATIVE NAME 1: A\n# ALTERNATIVE NAME 2: B\n# ALTERNATIVE NAME 3: C\n"
    "1: 1,2,3\n1: 1,3,2\n2: 3,1,2\n1: 2,3,1\n";

TEST(RateCommandTest, MlOnThePentathlonPicksTheCondorcetWinner) {
  const std::string path = WriteTemp("pentathlon.soc", kPentathlon);
  auto report = RunRate({.method = "ml", .input = path});
  ASSERT_THAT(report, IsOk()) << report.status();
  EXPECT_EQ(report->results(), 5u);
  EXPECT_EQ(report->ranking(0).agent(), "C");
  const auto& extra = report->extra().fields();
  const double e = extra.at("exploitability").number_value();
  EXPECT_LE(e, 1e-3);
  EXPECT_TRUE(extra.at("converged").bool_value());
  // Certificate bound (maximal_lottery_test.cc): p_C >= 1 - 3e.
  EXPECT_GE(extra.at("lottery").struct_value().fields().at("C").number_value(), 1 - 3 * e - 1e-12);
}

// The Rainbow table: Rainbow is the strong Condorcet winner ([VasE] Table 6
// discussion), so ml puts (nearly) all probability on it.
TEST(RateCommandTest, RainbowTableThroughAllThreeModels) {
  const std::string path = kData + "/atari/atari_rainbow_table6.txt";
  for (const char* method : {"elo", "sco", "ml"}) {
    auto report = RunRate({.method = method, .input = path});
    ASSERT_THAT(report, IsOk()) << method << ": " << report.status();
    EXPECT_EQ(report->agents(), 8u) << method;
    EXPECT_EQ(report->results(), 54u) << method;
  }
  auto ml = RunRate({.method = "ml", .input = path});
  ASSERT_THAT(ml, IsOk());
  EXPECT_EQ(ml->ranking(0).agent(), "rainbow");
  EXPECT_LE(ml->extra().fields().at("exploitability").number_value(), 1e-3);
}

TEST(RateCommandTest, SeveralPoolsNeedAChoice) {
  const std::string path = WriteTemp(
      "pools.jsonl",
      R"({"pool":"p1","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})"
      "\n"
      R"({"pool":"p2","gameId":"g2","standings":[{"agent":"b","rank":1},{"agent":"c","rank":2}]})"
      "\n");
  EXPECT_THAT(
      RunRate({.method = "elo", .input = path}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("holds results of 2 pools (p1, p2)")));
  auto report = RunRate({.method = "elo", .input = path, .pool = "p2"});
  ASSERT_THAT(report, IsOk()) << report.status();
  EXPECT_EQ(report->results(), 1u);
  EXPECT_EQ(ByAgent(*report).count("a"), 0u);
}

TEST(RateCommandTest, ErrorsNameWhatIsWrong) {
  EXPECT_THAT(RunRate({.method = "glicko", .input = "x.jsonl"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown method 'glicko'; known: elo, sco, ml")));
  EXPECT_THAT(RunRate({.method = "elo", .input = "results.xlsx"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("results.xlsx")));
  EXPECT_THAT(RunRate({.method = "sco", .input = "x.jsonl", .params = {"tau=0"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tau")));
  const std::string bad = WriteTemp(
      "bad.jsonl",
      R"({"pool":"p","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})"
      "\n"
      R"({"pool":"p","gameId":"g2","standings":[{"agent":"a","rank":1},{"agent":"b","rank":0}]})"
      "\n");
  EXPECT_THAT(RunRate({.method = "elo", .input = bad}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bad.jsonl:2:")));
}

TEST(RateCommandTest, MlRefusesPoolsAboveMaxAgents) {
  const std::string path = WriteTemp("pentathlon2.soc", kPentathlon);
  EXPECT_THAT(RunRate({.method = "ml", .input = path, .params = {"max_agents=2"}}),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("max_agents 2")));
}

// --seed is echoed in extra.seed for every online model (as before the pool's unused
// generator was removed) and changes nothing else: the online models draw nothing.
TEST(RateCommandTest, SeedIsEchoedAndChangesNothingElse) {
  const std::string path = WriteTemp("seeded.soc", kPentathlon);
  for (const char* method : {"elo", "sco", "ml"}) {
    SCOPED_TRACE(method);
    auto plain = RunRate({.method = method, .input = path});
    auto seeded = RunRate({.method = method, .input = path, .seed = 42});
    ASSERT_THAT(plain, IsOk());
    ASSERT_THAT(seeded, IsOk());
    EXPECT_EQ(plain->extra().fields().at("seed").number_value(), 0);
    EXPECT_EQ(seeded->extra().fields().at("seed").number_value(), 42);
    (*seeded->mutable_extra()->mutable_fields())["seed"].set_number_value(0);
    EXPECT_EQ(*ReportToJson(*seeded), *ReportToJson(*plain));
  }
  // Hand-computed as in EloOnJsonl: a beats b from 1500 each with K = 32.
  const std::string two = WriteTemp(
      "two-seeded.jsonl",
      R"({"pool":"p","gameId":"g1","standings":[{"agent":"a","rank":1},{"agent":"b","rank":2}]})"
      "\n");
  auto elo = RunRate({.method = "elo", .input = two, .seed = 7});
  ASSERT_THAT(elo, IsOk()) << elo.status();
  EXPECT_EQ(elo->ranking(0).rating(), 1516.0);
  EXPECT_EQ(elo->ranking(1).rating(), 1484.0);
  EXPECT_THAT(*ReportToJson(*elo), HasSubstr(R"("seed":7,)"));
}

TEST(RateCommandTest, JsonIsByteIdenticalAcrossRuns) {
  const std::string path = kData + "/atari/atari_rainbow_table6.txt";
  auto first = RunRate({.method = "ml", .input = path, .seed = 3});
  auto second = RunRate({.method = "ml", .input = path, .seed = 3});
  ASSERT_THAT(first, IsOk());
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(*ReportToJson(*first), *ReportToJson(*second));
  EXPECT_THAT(*ReportToJson(*first), HasSubstr(R"("method":"ml","agents":8,"results":54,)"));
}

// The batch methods and voting rules read a PrefLib file or a score table straight into
// votes (ratings/io/preflib_votes.h, ratings/io/scores_votes.h); RateRecords still rates the
// records ReadPoolRecords gives. Both must print the same JSON, or fail with the same error.
TEST(RateCommandTest, VotesReadDirectlyGiveTheRecordsReport) {
  std::vector<std::string> methods;
  for (const MethodInfo& m : Methods()) {
    if (m.input == MethodInput::kVotes) methods.emplace_back(m.name);
  }
  ASSERT_EQ(methods.size(), 13u);  // 3 batch fits and 10 voting rules
  const std::string blocks = WriteTemp("blocks.soi",
                                       "# NUMBER ALTERNATIVES: 4\n# ALTERNATIVE NAME 1: d\n"
                                       "# ALTERNATIVE NAME 2: c\n# ALTERNATIVE NAME 3: b\n"
                                       "# ALTERNATIVE NAME 4: a\n3: 4,2\n0: 1,2\n2: 3\n"
                                       "1: 1,{3,4}\n2: 2,1,3\n");
  // Ties (-0.0 with 0.0), thousands separators and mean±std; more than 32 columns.
  std::string wide_header = "# game";
  std::string wide_row = "t1";
  for (int a = 0; a < 40; ++a) {
    absl::StrAppend(&wide_header, " w", a);
    absl::StrAppend(&wide_row, " ", a % 7 == 0 ? "-0.0" : a % 5 == 0 ? "0" : absl::StrCat(a % 9));
  }
  const std::string table = WriteTemp("table.txt",
                                      "# game a b c d\nt1 3 1 3 2\nt2 -0.0 0.0 1,000 5\xC2\xB1"
                                      "1\nt3 2 2 2 2\nt4 1 2 3 4\n");
  const std::string wide = WriteTemp("wide.txt", wide_header + "\n" + wide_row + "\n" + wide_row +
                                                     " \nt2" + wide_row.substr(2) + "\n");
  for (const std::string& path :
       {blocks, kData + "/preflib/00004-00000016.soc", kData + "/preflib/00016-00000002.toi",
        kData + "/preflib/00003-00000001.toc", kData + "/preflib/00007-00000008.soi", table, wide,
        kData + "/atari/atari_rainbow_table6.txt", kData + "/atari/atari_agent57_table.txt",
        kData + "/atari/atari_muesli_table11.txt"}) {
    for (const std::string& method : methods) {
      SCOPED_TRACE(path + " " + method);
      // The two SGD fits at 500 of their default 10,000 steps: the paths are compared, not
      // the fits' convergence (at the default they took most of this test's time).
      std::vector<std::string> params;
      if (method == "sco-batch" || method == "sco-fy") params = {"iterations=500"};
      const RateConfig config = {.method = method, .input = path, .params = params, .seed = 5};
      const absl::StatusOr<v1::RatingReport> votes = RunRate(config);
      const absl::StatusOr<PoolRecords> records = ReadPoolRecords(config);
      ASSERT_THAT(records, IsOk());
      const absl::StatusOr<v1::RatingReport> reference =
          RateRecords(config, records->records, records->skipped_votes);
      ASSERT_EQ(votes.status(), reference.status());
      if (votes.ok()) {
        EXPECT_EQ(*ReportToJson(*votes), *ReportToJson(*reference));
      }
    }
  }
  // --pool: PrefLib and score tables name none, on either path; an empty table holds no
  // results, and a broken one gives its own error first.
  const std::string empty = WriteTemp("empty.txt", "# game a b\n");
  const std::string broken = WriteTemp("broken.txt", "# game a b\nt1 1 2\nt2 1\n");
  for (const std::string& path : {blocks, table, empty, broken}) {
    SCOPED_TRACE(path);
    for (const char* method : {"borda", "elo-bt"}) {
      const RateConfig pooled = {.method = method, .input = path, .pool = "p"};
      const absl::StatusOr<PoolRecords> records = ReadPoolRecords(pooled);
      if (!records.ok()) {
        EXPECT_EQ(RunRate(pooled).status(), records.status());
        EXPECT_EQ(ReadPoolVotes(pooled).status(), records.status());
        continue;
      }
      const absl::StatusOr<v1::RatingReport> reference =
          RateRecords(pooled, records->records, records->skipped_votes);
      const absl::StatusOr<v1::RatingReport> votes = RunRate(pooled);
      ASSERT_EQ(votes.status(), reference.status());
      if (votes.ok()) {
        EXPECT_EQ(*ReportToJson(*votes), *ReportToJson(*reference));
      }
    }
  }
  EXPECT_THAT(RunRate({.method = "borda", .input = blocks, .pool = "p"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("names no pools")));
  EXPECT_THAT(RunRate({.method = "borda", .input = table, .pool = "p"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("names no pools")));
  EXPECT_THAT(RunRate({.method = "borda", .input = broken, .pool = "p"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("broken.txt:3: task t2")));
}

// ReadPoolVotes (eval, elo-sweep) gives what ReadPoolRecords and ToVoteSet give.
TEST(RateCommandTest, ReadPoolVotesEqualsTheRecordsVotes) {
  for (const std::string& path :
       {kData + "/preflib/00016-00000002.toi", kData + "/atari/atari_rainbow_table6.txt",
        kData + "/atari/atari_agent57_table.txt"}) {
    SCOPED_TRACE(path);
    const RateConfig config = {.input = path};
    const absl::StatusOr<ratings::io::VoteInput> votes = ReadPoolVotes(config);
    const absl::StatusOr<PoolRecords> records = ReadPoolRecords(config);
    ASSERT_THAT(votes, IsOk());
    ASSERT_THAT(records, IsOk());
    ratings::AgentIndex index;
    const absl::StatusOr<ratings::VoteSet> reference =
        ratings::io::ToVoteSet(records->records, path, index);
    ASSERT_THAT(reference, IsOk());
    EXPECT_EQ(votes->agents.names(), index.names());
    EXPECT_EQ(votes->skipped_votes, records->skipped_votes);
    ASSERT_EQ(votes->votes.size(), reference->size());
    for (size_t i = 0; i < reference->size(); ++i) {
      const auto a = votes->votes.BestFirst(i);
      const auto b = reference->BestFirst(i);
      EXPECT_TRUE(std::equal(a.agents.begin(), a.agents.end(), b.agents.begin(), b.agents.end()));
      EXPECT_TRUE(std::equal(a.ranks.begin(), a.ranks.end(), b.ranks.begin(), b.ranks.end()));
    }
  }
}

}  // namespace
}  // namespace ratingd
