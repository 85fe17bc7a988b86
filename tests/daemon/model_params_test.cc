#include "daemon/model_params.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ModelParamsTest, SetsEveryParameter) {
  ratings::PoolOptions o;
  for (const char* p : {"k=16", "initial=1000"}) ASSERT_THAT(ApplyModelParam("elo", p, o), IsOk());
  for (const char* p : {"alpha=0.5", "tau=2", "min=-5", "max=5"}) {
    ASSERT_THAT(ApplyModelParam("sco", p, o), IsOk());
  }
  for (const char* p : {"target=1e-5", "support_threshold=0", "max_iterations=7",
                        "iterations_per_result=2", "variant=rm", "max_agents=10"}) {
    ASSERT_THAT(ApplyModelParam("ml", p, o), IsOk());
  }
  EXPECT_EQ(o.elo_options.k, 16);
  EXPECT_EQ(o.elo_options.initial, 1000);
  EXPECT_EQ(o.sco_options.alpha, 0.5);
  EXPECT_EQ(o.sco_options.tau, 2);
  EXPECT_EQ(o.sco_options.min, -5);
  EXPECT_EQ(o.sco_options.max, 5);
  EXPECT_EQ(o.ml_options.target_exploitability, 1e-5);
  EXPECT_EQ(o.ml_options.support_threshold, 0);
  EXPECT_EQ(o.ml_options.max_iterations, 7);
  EXPECT_EQ(o.ml_options.iterations_per_result, 2);
  EXPECT_EQ(o.ml_options.variant, ratings::RegretVariant::kRegretMatching);
  EXPECT_EQ(o.ml_options.max_agents, 10u);
}

TEST(ModelParamsTest, ErrorsNameTheKeyAndTheFix) {
  ratings::PoolOptions o;
  EXPECT_THAT(ApplyModelParam("elo", "K=3", o),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown parameter 'K' for method elo; known: k, initial")));
  EXPECT_THAT(ApplyModelParam("elo", "k", o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("expected key=value")));
  EXPECT_THAT(ApplyModelParam("sco", "alpha=fast", o),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--param alpha (sco): 'fast' is not a number")));
  EXPECT_THAT(ApplyModelParam("ml", "max_iterations=1.5", o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not an integer")));
  EXPECT_THAT(ApplyModelParam("ml", "variant=cfr", o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not one of prm+, rm+, rm")));
  EXPECT_THAT(ApplyModelParam("sco", "k=3", o), StatusIs(absl::StatusCode::kInvalidArgument,
                                                         HasSubstr("known: alpha, tau, min, max")));
}

TEST(ModelParamsTest, ListsNamesPerMethod) {
  EXPECT_THAT(ModelParamNames("elo"), ElementsAre("k", "initial"));
  EXPECT_TRUE(ModelParamNames("kemeny").empty());
}

}  // namespace
}  // namespace ratingd
