// DedupWindow: the last `capacity` game ids of a pool, kept in numbered segments; worked
// through by hand.
#include "daemon/ratingd/dedup_window.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

std::vector<uint64_t> Seqs(const std::vector<DedupWindow::SegmentPtr>& segments) {
  std::vector<uint64_t> seqs;
  for (const auto& s : segments) seqs.push_back(s->seq);
  return seqs;
}

std::vector<DedupWindow::Segment> Copy(const DedupWindow& window) {
  std::vector<DedupWindow::Segment> copy;
  for (const auto& s : window.sealed()) copy.push_back(*s);
  return copy;
}

std::vector<std::string> Open(const DedupWindow& window) {
  return {window.open().begin(), window.open().end()};
}

TEST(DedupWindowTest, RemembersTheLastCapacityIdsAndForgetsTheOldest) {
  DedupWindow window(3);
  EXPECT_TRUE(window.Insert("a"));
  EXPECT_TRUE(window.Insert("b"));
  EXPECT_FALSE(window.Insert("a"));  // a repeat changes nothing
  EXPECT_TRUE(window.Insert("c"));
  EXPECT_THAT(window.Ids(), ElementsAre("a", "b", "c"));
  EXPECT_TRUE(window.Insert("d"));  // full: "a" is forgotten
  EXPECT_THAT(window.Ids(), ElementsAre("b", "c", "d"));
  EXPECT_FALSE(window.Contains("a"));
  EXPECT_TRUE(window.Insert("a"));  // outside the window again: new
  EXPECT_THAT(window.Ids(), ElementsAre("c", "d", "a"));
  EXPECT_EQ(window.size(), 3u);
}

TEST(DedupWindowTest, CapacityBelowOneKeepsOneId) {
  DedupWindow window(0);
  EXPECT_TRUE(window.Insert("a"));
  EXPECT_FALSE(window.Insert("a"));
  EXPECT_TRUE(window.Insert("b"));
  EXPECT_THAT(window.Ids(), ElementsAre("b"));
}

// Many inserts: the views into the kept ids stay valid while segments fill, seal and are
// dropped (the window's memory-safety argument; ASan checks it).
TEST(DedupWindowTest, ManyIdsThroughASmallWindow) {
  DedupWindow window(100);
  for (int i = 0; i < 10000; ++i) EXPECT_TRUE(window.Insert(absl::StrCat("g", i)));
  EXPECT_EQ(window.size(), 100u);
  EXPECT_TRUE(window.Contains("g9999"));
  EXPECT_TRUE(window.Contains("g9900"));
  EXPECT_FALSE(window.Contains("g9899"));
}

// Capacity 4: segments of 4 ids. After a..j: segment 0 = a-d (dropped), segment 1 = e-h of
// which e, f are forgotten, open segment 2 = i, j. Window g h i j.
TEST(DedupWindowTest, SegmentsSealAtTheSegmentSizeAndAreDroppedOnceForgotten) {
  DedupWindow window(4);
  EXPECT_EQ(window.segment_ids(), 4u);
  for (const char* id : {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}) window.Insert(id);
  EXPECT_THAT(window.Ids(), ElementsAre("g", "h", "i", "j"));
  ASSERT_EQ(window.sealed().size(), 1u);
  EXPECT_EQ(window.sealed()[0]->seq, 1u);
  EXPECT_THAT(window.sealed()[0]->ids(), ElementsAre("e", "f", "g", "h"));
  EXPECT_EQ(window.front_skip(), 2u);
  EXPECT_EQ(window.open_seq(), 2u);
  EXPECT_THAT(Open(window), ElementsAre("i", "j"));
  EXPECT_EQ(DedupWindow(100000).segment_ids(), DedupWindow::kSegmentIds);
}

TEST(DedupWindowTest, WrittenSegmentsAreReportedOnceAndTombstonedOnceForgotten) {
  DedupWindow window(4);
  for (const char* id : {"a", "b", "c", "d", "e"}) window.Insert(id);
  EXPECT_THAT(Seqs(window.TakeUnwritten()), ElementsAre(0u));  // a-d
  EXPECT_THAT(window.TakeUnwritten(), IsEmpty());
  for (const char* id : {"f", "g", "h"}) window.Insert(id);  // seals 1 = e-h, drops 0
  EXPECT_THAT(window.TakeForgotten(), ElementsAre(0u));
  EXPECT_THAT(window.TakeForgotten(), IsEmpty());
  EXPECT_THAT(Seqs(window.TakeUnwritten()), ElementsAre(1u));
  for (const char* id : {"i", "j", "k", "l", "m", "n", "o", "p"}) window.Insert(id);
  // Sealed 2 = i-l and 3 = m-p; 1 (written) and 2 (not written by this window) are
  // dropped: both get a tombstone, since 2 may have been written ahead by an earlier run of
  // this state.
  EXPECT_THAT(window.TakeForgotten(), ElementsAre(1u, 2u));
  EXPECT_THAT(Seqs(window.TakeUnwritten()), ElementsAre(3u));
}

// A segment copies its ids into blocks that never move: ids of every length, past many
// blocks and longer than the largest, read back whole after every later Add; a copy
// outlives its original; a moved-from segment is empty. Expected: the ids as added.
TEST(DedupWindowTest, ASegmentKeepsItsIdsInPlace) {
  std::vector<std::string> added;
  auto segment = std::make_unique<DedupWindow::Segment>(7);
  for (size_t i = 0; i < 3000; ++i) {
    added.push_back(std::string(i % 97, static_cast<char>('a' + i % 26)) + std::to_string(i));
    segment->Add(added.back());
  }
  added.push_back(std::string(40000, 'z'));  // longer than the largest block
  segment->Add(added.back());
  segment->Add("");
  added.push_back("");
  size_t bytes = 0;
  for (const std::string& id : added) bytes += id.size();
  EXPECT_EQ(segment->IdBytes(), bytes);
  EXPECT_THAT(segment->ids(), ElementsAreArray(added));
  DedupWindow::Segment copy = *segment;
  segment.reset();
  EXPECT_EQ(copy.seq, 7u);
  EXPECT_THAT(copy.ids(), ElementsAreArray(added));
  DedupWindow::Segment moved = std::move(copy);
  EXPECT_THAT(moved.ids(), ElementsAreArray(added));
  EXPECT_TRUE(copy.ids().empty());  // NOLINT(bugprone-use-after-move): the contract
  EXPECT_EQ(copy.IdBytes(), 0u);
  copy.Add("again");  // a moved-from segment takes new ids in blocks of its own
  EXPECT_THAT(copy.ids(), ElementsAre("again"));
  EXPECT_THAT(moved.ids(), ElementsAreArray(added));
}

// Three sealed segments of 4,096 five-byte ids (20,480 bytes each): the oldest unwritten
// first, as many as fit the budget, at least one.
TEST(DedupWindowTest, UnwrittenSegmentsAreTakenOldestFirstWithinTheBudget) {
  DedupWindow window(4 * DedupWindow::kSegmentIds);
  for (size_t i = 0; i < 3 * DedupWindow::kSegmentIds + 1; ++i) {
    window.Insert(absl::StrFormat("%05d", i));
  }
  ASSERT_EQ(window.sealed().size(), 3u);
  EXPECT_EQ(window.sealed().front()->IdBytes(), 5u * DedupWindow::kSegmentIds);
  EXPECT_TRUE(window.HasUnwritten());
  EXPECT_THAT(Seqs(window.TakeUnwritten(30000)), ElementsAre(0u));  // 0 and 1: 40,960
  EXPECT_THAT(Seqs(window.TakeUnwritten(1)), ElementsAre(1u));      // at least one
  EXPECT_THAT(Seqs(window.TakeUnwritten()), ElementsAre(2u));
  EXPECT_FALSE(window.HasUnwritten());
  EXPECT_THAT(window.TakeUnwritten(), IsEmpty());
  for (size_t i = 0; i < DedupWindow::kSegmentIds; ++i) window.Insert(absl::StrFormat("x%05d", i));
  EXPECT_TRUE(window.HasUnwritten());  // 3 sealed
  EXPECT_THAT(Seqs(window.TakeUnwritten()), ElementsAre(3u));
  EXPECT_THAT(window.TakeForgotten(), IsEmpty());  // of 16,385 ids, only 0's first is
}

// Ids of 100 KiB: two fit a 256 KiB segment, the third seals it first; an id longer than
// the limit is a segment of its own.
TEST(DedupWindowTest, SegmentsAlsoSealBeforeTheirIdsPassTheByteLimit) {
  DedupWindow window(1000);
  const std::string big(100 * 1024, 'x');
  for (int i = 0; i < 3; ++i) window.Insert(absl::StrCat(i, big));
  ASSERT_EQ(window.sealed().size(), 1u);
  EXPECT_EQ(window.sealed()[0]->ids().size(), 2u);
  EXPECT_EQ(window.open().size(), 1u);
  window.Insert(std::string(300 * 1024, 'y'));  // 100 + 300 KiB > 256: seals, then alone
  window.Insert("small");                       // seals the 300 KiB one first
  ASSERT_EQ(window.sealed().size(), 3u);
  EXPECT_EQ(window.sealed()[2]->ids().size(), 1u);
  EXPECT_THAT(Open(window), ElementsAre("small"));
}

// A window rebuilt from its parts (a format 2 snapshot) equals the original and goes on
// exactly as it does: same ids, segment numbers and bookkeeping.
TEST(DedupWindowTest, RestoreFromSegmentsContinuesLikeTheOriginal) {
  DedupWindow original(6);
  for (int i = 0; i < 17; ++i) original.Insert(absl::StrCat("g", i));
  original.TakeUnwritten();  // as a snapshot does
  original.TakeForgotten();
  DedupWindow restored(6);
  ASSERT_TRUE(
      restored.Restore(Copy(original), original.front_skip(), original.open_seq(), Open(original))
          .ok());
  EXPECT_EQ(restored.Ids(), original.Ids());
  EXPECT_FALSE(restored.Insert("g16"));
  for (int i = 17; i < 30; ++i) {
    EXPECT_TRUE(original.Insert(absl::StrCat("g", i)));
    EXPECT_TRUE(restored.Insert(absl::StrCat("g", i)));
  }
  EXPECT_EQ(restored.Ids(), original.Ids());
  EXPECT_EQ(restored.open_seq(), original.open_seq());
  EXPECT_EQ(restored.TakeForgotten(), original.TakeForgotten());
  EXPECT_EQ(Seqs(restored.TakeUnwritten()), Seqs(original.TakeUnwritten()));
}

// A format 1 snapshot: every id in the open part, numbered from 0; nothing counts as written.
TEST(DedupWindowTest, RestoreOfPlainIdsSealsThemAsTheyFill) {
  DedupWindow window(3);
  ASSERT_TRUE(window.Restore({}, 0, 0, {"b", "c", "d"}).ok());
  EXPECT_THAT(window.Ids(), ElementsAre("b", "c", "d"));
  EXPECT_FALSE(window.Insert("c"));
  EXPECT_TRUE(window.Insert("e"));  // forgets "b", as the original would
  EXPECT_THAT(window.Ids(), ElementsAre("c", "d", "e"));
  EXPECT_THAT(Seqs(window.TakeUnwritten()), ElementsAre(0u));
  EXPECT_THAT(window.TakeForgotten(), IsEmpty());
}

TEST(DedupWindowTest, RestoreRefusesPartsThatMakeNoWindow) {
  const auto segment = [](uint64_t seq, std::vector<std::string> ids) {
    DedupWindow::Segment s(seq);
    for (const std::string& id : ids) s.Add(id);
    return s;
  };
  DedupWindow window(4);
  EXPECT_FALSE(window.Restore({segment(0, {"a", "b"}), segment(2, {"c"})}, 0, 3, {}).ok());
  EXPECT_FALSE(window.Restore({segment(0, {"a", "b"})}, 2, 1, {}).ok());  // skips it all
  EXPECT_FALSE(window.Restore({segment(0, {"a", "b"})}, 0, 1, {"a"}).ok());
  EXPECT_FALSE(window.Restore({segment(0, {"a", "b", "c", "d"})}, 0, 1, {"e"}).ok());
  EXPECT_FALSE(window.Restore({segment(0, {})}, 0, 1, {}).ok());
  EXPECT_FALSE(window.Restore({segment(0, {"a"})}, 0, 0, {}).ok());  // numbered below 0
  EXPECT_EQ(window.size(), 0u);                                      // left empty
  EXPECT_TRUE(window.Restore({segment(4, {"a", "b", "c", "d"})}, 1, 5, {"e"}).ok());
  EXPECT_THAT(window.Ids(), ElementsAre("b", "c", "d", "e"));
}

}  // namespace
}  // namespace ratingd
