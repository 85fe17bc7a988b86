#include "ratings/active/simulation.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings::active {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Two seeds, one k, three rounds, window 2. Seed 0: GRE 1, 0.5, 0 (AGRE 0.5);
// seed 1: 0.5, 0.5, 0.5 (AGRE 0.5). By hand: agre 0.5, CI 0 (equal AGREs); final GRE
// (0 + 0.5)/2 = 0.25, zero fraction 1/2. Windowed: seed 0: 1, 0.75, 0.25; seed 1: 0.5,
// 0.5, 0.5 -> means 0.75, 0.625, 0.375; CI at t = 1: sample std of {1, 0.5} =
// 0.3536, 1.96 · 0.3536 / sqrt 2 = 0.49.
TEST(SimulationTest, SummariseByHand) {
  const std::vector<SeedCurves> seeds = {{{{1.0, 0.5, 0.0}}}, {{{0.5, 0.5, 0.5}}}};
  SimulationOptions sim;
  sim.rounds = 3;
  sim.k = {3};
  sim.window = 2;
  const std::vector<Summary> out = Summarise(seeds, sim, /*curves=*/true);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].k, 3u);
  EXPECT_DOUBLE_EQ(out[0].agre, 0.5);
  EXPECT_DOUBLE_EQ(out[0].agre_ci95, 0.0);
  EXPECT_DOUBLE_EQ(out[0].final_gre, 0.25);
  EXPECT_DOUBLE_EQ(out[0].final_gre_zero_fraction, 0.5);
  EXPECT_THAT(out[0].curve_mean, ElementsAre(0.75, 0.625, 0.375));
  EXPECT_NEAR(out[0].curve_ci95[0], 1.96 * std::sqrt(0.125) / std::sqrt(2.0), 1e-12);
  EXPECT_TRUE(Summarise(seeds, sim, false)[0].curve_mean.empty());
}

TEST(SimulationTest, RunSeedIsDeterministicAndSeedsDiffer) {
  SimulationOptions sim;
  sim.rounds = 500;
  const ScoreGeneratorOptions mallows{};
  for (const char* name : {"uniform-averaging", "batch-sco", "batch-maximal-lotteries"}) {
    const SeedCurves a = *RunSeed(mallows, name, {}, sim, 3);
    const SeedCurves b = *RunSeed(mallows, name, {}, sim, 3);
    EXPECT_EQ(a.gre, b.gre) << name;
    ASSERT_EQ(a.gre.size(), 2u);
    EXPECT_EQ(a.gre[0].size(), 500u);
  }
  EXPECT_NE(SeedModel(mallows, sim, 0)->truth(), SeedModel(mallows, sim, 1)->truth());
}

TEST(SimulationTest, RejectsAKBeyondTheRankedAgents) {
  SimulationOptions sim;
  sim.rounds = 10;
  sim.k = {9};
  EXPECT_THAT(RunSeed({}, "online-elo", {}, sim, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k = 9 is outside [1, 8]")));
  // Clones: errors are measured on the 8 originals, so k = 9 is refused there too.
  EXPECT_THAT(RunSeed({.kind = GeneratorKind::kClones}, "online-elo", {}, sim, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("[1, 8]")));
}

}  // namespace
}  // namespace ratings::active
