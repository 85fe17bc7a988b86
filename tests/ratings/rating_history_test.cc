#include "ratings/rating_history.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratings {
namespace {

using ::testing::ElementsAre;

std::vector<uint64_t> Sequences(const RatingHistory& h) {
  std::vector<uint64_t> out;
  for (const HistoryPoint& p : h.points()) out.push_back(p.sequence);
  return out;
}

// By hand, capacity 8 (older half: the first 4): 1..8 fill it; 9 keeps 1, 3 of the first
// four, then 5..8, then 9; 10 fits; 11 keeps 1, 5 of {1, 3, 5, 6}; 12 fits; 13 keeps 1, 7
// of {1, 5, 7, 8}.
TEST(RatingHistoryTest, ThinsTheOlderHalfByHand) {
  RatingHistory h(8);
  for (uint64_t s = 1; s <= 8; ++s) h.Add({.sequence = s});
  EXPECT_THAT(Sequences(h), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
  h.Add({.sequence = 9});
  EXPECT_THAT(Sequences(h), ElementsAre(1, 3, 5, 6, 7, 8, 9));
  h.Add({.sequence = 10});
  h.Add({.sequence = 11});
  EXPECT_THAT(Sequences(h), ElementsAre(1, 5, 7, 8, 9, 10, 11));
  h.Add({.sequence = 12});
  h.Add({.sequence = 13});
  EXPECT_THAT(Sequences(h), ElementsAre(1, 7, 9, 10, 11, 12, 13));
}

// Over long runs, whatever the capacity: never more points than the capacity, the first
// and the newest kept, sequences increasing, and the gaps between neighbours never larger
// nearer the present than further back.
TEST(RatingHistoryTest, OlderPointsAreFurtherApartAndMemoryIsFixed) {
  for (size_t capacity : {4u, 5u, 7u, 8u, 9u, 16u, 128u}) {
    RatingHistory h(capacity);
    for (uint64_t s = 1; s <= 5000; ++s) {
      h.Add({.sequence = s});
      const std::vector<uint64_t> seq = Sequences(h);
      ASSERT_LE(seq.size(), capacity);
      ASSERT_LE(h.reserved(), capacity);
      ASSERT_EQ(seq.front(), 1u);
      ASSERT_EQ(seq.back(), s);
      for (size_t i = 1; i < seq.size(); ++i) {
        ASSERT_LT(seq[i - 1], seq[i]);
        if (i >= 2) {
          ASSERT_GE(seq[i - 1] - seq[i - 2], seq[i] - seq[i - 1])
              << "capacity " << capacity << " after " << s << " at " << i;
        }
      }
    }
    EXPECT_GE(h.points().size(), capacity - capacity / 4 - 1);  // thinning never empties it
  }
}

TEST(RatingHistoryTest, PointsKeepTheirFields) {
  RatingHistory h(4);
  const absl::Time t = absl::FromUnixSeconds(1'700'000'000);
  h.Add({.sequence = 3, .time = t, .rating = 1510.5, .ci_low = 1400, .ci_high = 1620});
  h.Add({.sequence = 7, .time = std::nullopt, .rating = 1490, .ci_low = 1390, .ci_high = 1590});
  ASSERT_EQ(h.points().size(), 2u);
  EXPECT_EQ(h.points()[0].time, t);
  EXPECT_EQ(h.points()[0].rating, 1510.5);
  EXPECT_EQ(h.points()[0].ci_low, 1400);
  EXPECT_EQ(h.points()[0].ci_high, 1620);
  EXPECT_FALSE(h.points()[1].time.has_value());
  EXPECT_EQ(h.capacity(), 4u);
}

// A run shared from a history keeps the points it covered while the history grows past
// them and thins, whether or not it was shared again in between; copies and moves keep the
// points too, and a moved-from history is empty.
TEST(RatingHistoryTest, SharedRunsStayAsTheyWereWhileTheHistoryGoesOn) {
  RatingHistory h(8);
  std::vector<std::pair<HistoryRun, std::vector<uint64_t>>> runs;
  for (uint64_t s = 1; s <= 60; ++s) {
    h.Add({.sequence = s, .rating = static_cast<double>(s)});
    if (s % 7 == 0 || s == 3) runs.push_back({h.Share(), Sequences(h)});
  }
  for (const auto& [run, then] : runs) {
    std::vector<uint64_t> now;
    for (const HistoryPoint& p : run.points()) {
      now.push_back(p.sequence);
      EXPECT_EQ(p.rating, static_cast<double>(p.sequence));
    }
    EXPECT_EQ(now, then);
  }
  const RatingHistory copy = h;
  EXPECT_EQ(Sequences(copy), Sequences(h));
  EXPECT_NE(copy.points().data(), h.points().data());
  const std::vector<uint64_t> before = Sequences(h);
  RatingHistory moved = std::move(h);
  EXPECT_EQ(Sequences(moved), before);
  EXPECT_TRUE(h.points().empty());  // NOLINT(bugprone-use-after-move): documented state
}

// The design the views rely on, run under ThreadSanitizer in CI: one thread adds points and
// publishes runs (under a mutex, as ratingd publishes views), another reads the latest run's
// points meanwhile; every run read holds exactly the points it was shared with.
TEST(RatingHistoryTest, RunsAreReadOnAnotherThreadWhileTheHistoryGoesOn) {
  RatingHistory h(16);
  std::mutex mu;
  HistoryRun published;
  std::atomic<bool> done = false;
  std::thread reader([&] {
    while (!done.load()) {
      HistoryRun run;
      {
        std::lock_guard<std::mutex> lock(mu);
        run = published;
      }
      uint64_t previous = 0;
      for (const HistoryPoint& p : run.points()) {
        ASSERT_GT(p.sequence, previous);
        ASSERT_EQ(p.rating, 2.0 * static_cast<double>(p.sequence));
        previous = p.sequence;
      }
    }
  });
  for (uint64_t s = 1; s <= 20'000; ++s) {
    h.Add({.sequence = s, .rating = 2.0 * static_cast<double>(s)});
    if (s % 3 == 0) {
      HistoryRun run = h.Share();
      std::lock_guard<std::mutex> lock(mu);
      published = std::move(run);
    }
  }
  done = true;
  reader.join();
}

}  // namespace
}  // namespace ratings
