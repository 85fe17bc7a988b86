// The record path through the fakes (tests/fakes/): no broker.
#include "daemon/ratingd/pipeline.h"

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/fakes/pipeline_harness.h"

namespace ratingd::testing {
namespace {

std::string TempDir() {
  std::string dir = ::testing::TempDir() + "pipeline_XXXXXX";
  return mkdtemp(dir.data());
}

TEST(PipelineTest, OrdinaryResultsGiveOneDeltaPerModelAndCommitTheirOffsets) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, TestConfig(TempDir()), &clock);
  a.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 0, 3);
  a.consumer.Poll();
  EXPECT_TRUE(broker.deltas.empty());  // not committed yet
  clock.Advance(absl::Milliseconds(100));
  a.consumer.Poll();
  ASSERT_EQ(broker.deltas.size(), 6u);  // 3 results x (elo, sco)
  EXPECT_EQ(broker.committed_offsets.at(0), 3);
  const std::vector<v1::RankingDelta> deltas = broker.Deltas();
  EXPECT_EQ(deltas[0].model(), "elo");
  EXPECT_EQ(deltas[0].sequence(), 1u);
  EXPECT_EQ(deltas[5].model(), "sco");
  EXPECT_EQ(deltas[5].sequence(), 3u);
}

}  // namespace
}  // namespace ratingd::testing
