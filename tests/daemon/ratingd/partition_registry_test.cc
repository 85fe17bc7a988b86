// PartitionRegistry: incarnations, the pool index (Insert, GetOrCreatePool, Drop) and the
// replaying count. Expected values follow from the registry's construction in each test.
#include "daemon/ratingd/partition_registry.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;

PartitionState State(int32_t partition, const std::vector<std::string>& pools) {
  PartitionState state;
  state.partition = partition;
  for (const std::string& name : pools) EXPECT_TRUE(state.GetOrCreate(name, {}).ok());
  return state;
}

TEST(PartitionRegistryTest, InsertGivesEachRestoreANewIncarnation) {
  PartitionRegistry registry;
  EXPECT_TRUE(registry.empty());
  const uint64_t first = registry.Insert(State(0, {"chess"})).incarnation();
  const uint64_t other = registry.Insert(State(1, {"go"})).incarnation();
  const uint64_t again = registry.Insert(State(0, {"chess"})).incarnation();  // restored again
  EXPECT_EQ(std::set<uint64_t>({first, other, again}).size(), 3u);            // all different
  EXPECT_GT(again, first);
  EXPECT_EQ(registry.Find(0)->incarnation(), again);
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_THAT(registry.Held(), ElementsAre(0, 1));
  EXPECT_EQ(registry.Find(2), nullptr);
}

TEST(PartitionRegistryTest, FindPoolFollowsInsertCreateAndDrop) {
  PartitionRegistry registry;
  registry.Insert(State(0, {"chess", "shogi"}));
  registry.Insert(State(1, {"go"}));
  ASSERT_NE(registry.FindPool("chess"), nullptr);
  EXPECT_EQ(registry.FindPool("chess")->name(), "chess");
  EXPECT_EQ(registry.FindPool("go"), registry.Find(1)->pools.at("go").get());
  EXPECT_EQ(registry.FindPool("xiangqi"), nullptr);

  absl::StatusOr<LivePool*> created = registry.GetOrCreatePool(*registry.Find(1), "xiangqi", {});
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(registry.FindPool("xiangqi"), *created);
  EXPECT_EQ(*registry.GetOrCreatePool(*registry.Find(1), "xiangqi", {}), *created);  // found
  EXPECT_EQ(registry.Find(1)->pools.size(), 2u);

  registry.Drop(1);  // its pools leave the index
  EXPECT_EQ(registry.Find(1), nullptr);
  EXPECT_EQ(registry.FindPool("go"), nullptr);
  EXPECT_EQ(registry.FindPool("xiangqi"), nullptr);
  EXPECT_NE(registry.FindPool("chess"), nullptr);
  registry.Drop(7);  // not held: nothing
  EXPECT_EQ(registry.size(), 1u);

  // Partition 0 restored without "chess": the replaced state's pools leave the index.
  registry.Insert(State(0, {"shogi"}));
  EXPECT_EQ(registry.FindPool("chess"), nullptr);
  const PartitionRegistry& view = registry;
  EXPECT_EQ(view.FindPool("shogi"), view.Find(0)->pools.at("shogi").get());
}

TEST(PartitionRegistryTest, CountsThePartitionsStillReplaying) {
  PartitionRegistry registry;
  PartitionState behind = State(0, {});
  behind.next_offset = 2;
  behind.replay_until = 5;
  registry.Insert(std::move(behind));
  registry.Insert(State(1, {}));
  EXPECT_EQ(registry.replaying(), 1u);
  registry.Find(0)->next_offset = 5;  // replayed up to its committed offset
  EXPECT_EQ(registry.replaying(), 0u);
}

}  // namespace
}  // namespace ratingd
