#include "daemon/ratingctl/simulate.h"

#include <string>

#include "daemon/deterministic_json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

SimulateConfig Small(int threads) {
  SimulateConfig config;
  config.generator = "mallows";
  config.algorithms = {"online-elo", "batch-copeland", "online-maximal-lotteries"};
  config.params = {"phi=0.6", "online-elo:k=4"};
  config.sim.rounds = 200;
  config.sim.seeds = 7;
  config.threads = threads;
  config.curves = true;
  return config;
}

// Seeds run on several threads (the part TSan checks); the document and the curves are
// byte-identical to a single-threaded run.
TEST(SimulateTest, OutputDoesNotDependOnTheThreadCount) {
  const auto one = RunSimulate(Small(1));
  const auto three = RunSimulate(Small(3));
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(three.ok()) << three.status();
  EXPECT_EQ(*DeterministicJson(one->document), *DeterministicJson(three->document));
  EXPECT_EQ(one->curves_csv, three->curves_csv);
  EXPECT_EQ(one->document.fields().at("results").list_value().values_size(), 6);
}

TEST(SimulateTest, ProgressCountsEveryRun) {
  SimulateConfig config = Small(2);
  int64_t last_done = 0, last_total = 0;
  config.progress = [&](int64_t done, int64_t total) {
    last_done = done;
    last_total = total;
  };
  ASSERT_TRUE(RunSimulate(config).ok());
  EXPECT_EQ(last_done, 21);  // 3 algorithms x 7 seeds
  EXPECT_EQ(last_total, 21);
}

TEST(SimulateTest, BadArgumentsNameTheProblem) {
  SimulateConfig config = Small(1);
  config.sim.rounds = 0;
  EXPECT_THAT(RunSimulate(config),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--rounds must be >= 1")));
  config = Small(1);
  config.params = {"online-elo:k=-1"};
  EXPECT_THAT(RunSimulate(config), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
  config = Small(1);
  config.params = {"online-maximal-lotteries:exploration=2"};
  EXPECT_THAT(RunSimulate(config), StatusIs(absl::StatusCode::kInvalidArgument,
                                            HasSubstr("exploration must be in [0, 1]")));
}

}  // namespace
}  // namespace ratingd
