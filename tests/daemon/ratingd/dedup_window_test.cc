// DedupWindow: the last `capacity` game ids of a pool, worked through by hand.
#include "daemon/ratingd/dedup_window.h"

#include <deque>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;

TEST(DedupWindowTest, RemembersTheLastCapacityIdsAndForgetsTheOldest) {
  DedupWindow window(3);
  EXPECT_TRUE(window.Insert("a"));
  EXPECT_TRUE(window.Insert("b"));
  EXPECT_FALSE(window.Insert("a"));  // a repeat changes nothing
  EXPECT_TRUE(window.Insert("c"));
  EXPECT_THAT(window.ids(), ElementsAre("a", "b", "c"));
  EXPECT_TRUE(window.Insert("d"));  // full: "a" is forgotten
  EXPECT_THAT(window.ids(), ElementsAre("b", "c", "d"));
  EXPECT_FALSE(window.Contains("a"));
  EXPECT_TRUE(window.Insert("a"));  // outside the window again: new
  EXPECT_THAT(window.ids(), ElementsAre("c", "d", "a"));
  EXPECT_EQ(window.size(), 3u);
}

TEST(DedupWindowTest, CapacityBelowOneKeepsOneId) {
  DedupWindow window(0);
  EXPECT_TRUE(window.Insert("a"));
  EXPECT_FALSE(window.Insert("a"));
  EXPECT_TRUE(window.Insert("b"));
  EXPECT_THAT(window.ids(), ElementsAre("b"));
}

// Many inserts: the views into the kept ids stay valid while the deque grows and shrinks at
// its ends (the window's memory-safety argument; ASan checks it).
TEST(DedupWindowTest, ManyIdsThroughASmallWindow) {
  DedupWindow window(100);
  for (int i = 0; i < 10000; ++i) EXPECT_TRUE(window.Insert(absl::StrCat("g", i)));
  EXPECT_EQ(window.size(), 100u);
  EXPECT_TRUE(window.Contains("g9999"));
  EXPECT_TRUE(window.Contains("g9900"));
  EXPECT_FALSE(window.Contains("g9899"));
}

TEST(DedupWindowTest, RestoreGivesAnEqualWindow) {
  DedupWindow window(3);
  for (const char* id : {"a", "b", "c", "d"}) window.Insert(id);
  const std::deque<std::string>& kept = window.ids();
  DedupWindow restored(3);
  restored.Restore(std::vector<std::string>(kept.begin(), kept.end()));
  EXPECT_THAT(restored.ids(), ElementsAre("b", "c", "d"));
  EXPECT_FALSE(restored.Insert("c"));
  EXPECT_TRUE(restored.Insert("e"));  // forgets "b", as the original would
  EXPECT_THAT(restored.ids(), ElementsAre("c", "d", "e"));
}

}  // namespace
}  // namespace ratingd
