#include "daemon/methods/voting_methods.h"

#include <algorithm>
#include <string>
#include <vector>

#include "daemon/methods/method_registry.h"
#include "daemon/methods/report_text.h"
#include "daemon/methods/run_rate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

// A record holding Order(best_first, weight).
ratings::io::ResultRecord Vote(std::vector<std::string> best_first, double weight = 1.0) {
  ratings::io::ResultRecord r;
  r.result = ::ratings::testing::Order(best_first, weight);
  return r;
}

// [VasE] App.: the pentathlon, 1: A>B>C, 1: A>C>B, 2: C>A>B, 1: B>C>A.
std::vector<ratings::io::ResultRecord> Pentathlon() {
  return {Vote({"A", "B", "C"}), Vote({"A", "C", "B"}), Vote({"C", "A", "B"}, 2),
          Vote({"B", "C", "A"})};
}

std::vector<std::string> Agents(const v1::RatingReport& report) {
  std::vector<std::string> out;
  for (const auto& r : report.ranking()) out.push_back(r.agent());
  return out;
}

// docs/CONTRACTS.md §2.5: the ten voting rules and exact lotteries are family voting and
// read votes; nash-avg is family nash and reads scores.
TEST(VotingMethodsTest, TheRegistryKnowsEveryVotingMethod) {
  for (const char* m : {"ml-exact", "iml", "approval", "plurality", "borda", "stv", "copeland",
                        "kemeny", "ranked-pairs", "schulze"}) {
    const absl::StatusOr<const MethodInfo*> info = FindMethod(m);
    ASSERT_THAT(info, IsOk()) << m;
    EXPECT_EQ((*info)->family, MethodFamily::kVoting) << m;
    EXPECT_EQ((*info)->input, MethodInput::kVotes) << m;
  }
  const absl::StatusOr<const MethodInfo*> nash = FindMethod("nash-avg");
  ASSERT_THAT(nash, IsOk());
  EXPECT_EQ((*nash)->family, MethodFamily::kNash);
  EXPECT_EQ((*nash)->input, MethodInput::kScores);
}

// Borda ties A and C at 6 (appendix): the tie breaks by agent id, so A ranks first.
TEST(VotingMethodsTest, ScoringRulesRankByRatingThenAgent) {
  const absl::StatusOr<v1::RatingReport> r =
      RateRecords({.method = "borda", .seed = 4}, Pentathlon(), 2);
  ASSERT_THAT(r, IsOk()) << r.status();
  EXPECT_THAT(Agents(*r), ::testing::ElementsAre("A", "C", "B"));
  EXPECT_EQ(r->ranking(0).rating(), 6);
  EXPECT_EQ(r->ranking(1).rank(), 2u);
  EXPECT_EQ(r->agents(), 3u);
  EXPECT_EQ(r->results(), 4u);
  const auto& extra = r->extra().fields();
  EXPECT_TRUE(extra.at("params").struct_value().fields().empty());
  EXPECT_EQ(extra.at("seed").number_value(), 4);
  EXPECT_EQ(extra.at("skipped_votes").number_value(), 2);
}

TEST(VotingMethodsTest, ApprovalReportsItsK) {
  const absl::StatusOr<v1::RatingReport> r =
      RateRecords({.method = "approval", .params = {"k=2"}}, Pentathlon(), 0);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->extra().fields().at("params").struct_value().fields().at("k").number_value(), 2);
  EXPECT_EQ(r->ranking(2).agent(), "B");
  EXPECT_EQ(r->ranking(2).rating(), 2);
}

// Kemeny's order is the method's own (C > A > B), scores 6, 4, 0 (appendix).
TEST(VotingMethodsTest, OrderMethodsKeepTheirOrder) {
  for (const char* method : {"kemeny", "schulze", "ranked-pairs", "stv"}) {
    const absl::StatusOr<v1::RatingReport> r = RateRecords({.method = method}, Pentathlon(), 0);
    ASSERT_THAT(r, IsOk()) << method << r.status();
    EXPECT_THAT(Agents(*r), ::testing::ElementsAre("C", "A", "B")) << method;
  }
}

TEST(VotingMethodsTest, MlExactAndImlExtras) {
  const absl::StatusOr<v1::RatingReport> ml = RateRecords({.method = "ml-exact"}, Pentathlon(), 0);
  ASSERT_THAT(ml, IsOk());
  const auto& extra = ml->extra().fields();
  EXPECT_EQ(extra.at("lottery").struct_value().fields().at("C").number_value(), 1.0);
  EXPECT_EQ(extra.at("unique").bool_value(), true);
  EXPECT_LT(extra.at("exploitability").number_value(), 1e-12);
  EXPECT_EQ(ml->ranking(0).agent(), "C");

  const absl::StatusOr<v1::RatingReport> iml = RateRecords({.method = "iml"}, Pentathlon(), 0);
  ASSERT_THAT(iml, IsOk());
  const auto& levels = iml->extra().fields().at("levels").list_value();
  ASSERT_EQ(levels.values_size(), 3);
  const auto& top = levels.values(0).list_value().values(0).struct_value().fields();
  EXPECT_EQ(top.at("agent").string_value(), "C");
  EXPECT_EQ(top.at("probability").number_value(), 1.0);
  EXPECT_NEAR(iml->ranking(0).rating(), 3.0, 1e-12);
}

TEST(VotingMethodsTest, ParameterErrorsNameTheParameter) {
  EXPECT_THAT(RateRecords({.method = "approval", .params = {"k=two"}}, Pentathlon(), 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--param k (approval)")));
  EXPECT_THAT(RateRecords({.method = "copeland", .params = {"k=2"}}, Pentathlon(), 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown parameter 'k' for method copeland")));
  EXPECT_THAT(RateRecords({.method = "iml", .params = {"tolerance"}}, Pentathlon(), 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("expected key=value")));
  EXPECT_THAT(RateRecords({.method = "ml-exact", .params = {"tolerance=1"}}, Pentathlon(), 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--param tolerance")));
}

}  // namespace
}  // namespace ratingd
