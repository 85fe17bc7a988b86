// ReadBudget (read_budget.h): the generic cell rate algorithm on a fake clock. Expected waits
// by hand: at 10 answers a second one answer takes 100 ms of the budget; a burst of 3 lets
// three start at once, and the k-th (k > 3) of requests arriving together waits (k - 3) ×
// 100 ms; an answer charged by size takes one more turn per unit it starts beyond the first.
#include "daemon/ratingd/read_budget.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/fakes/fake_clock.h"

namespace ratingd::testing {
namespace {

TEST(ReadBudgetTest, ABurstStartsAtOnceThenEachWaitsItsTurn) {
  FakeClock clock;
  ReadBudget budget({.rate = 10, .burst = 3, .max_wait = absl::Milliseconds(250)}, &clock);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(budget.Take(), absl::ZeroDuration()) << i;
  EXPECT_EQ(budget.Take(), absl::Milliseconds(100));
  EXPECT_EQ(budget.Take(), absl::Milliseconds(200));
  EXPECT_EQ(budget.Take(), std::nullopt);  // 300 ms > 250 ms: refused, nothing taken
  EXPECT_EQ(budget.Take(), std::nullopt);
  clock.Advance(absl::Milliseconds(100));  // one turn has passed
  EXPECT_EQ(budget.Take(), absl::Milliseconds(200));
  clock.Advance(absl::Seconds(10));  // idle: the whole burst again, no more
  for (int i = 0; i < 3; ++i) EXPECT_EQ(budget.Take(), absl::ZeroDuration()) << i;
  EXPECT_EQ(budget.Take(), absl::Milliseconds(100));
}

TEST(ReadBudgetTest, RequestsAtTheRateNeverWait) {
  FakeClock clock;
  ReadBudget budget({.rate = 2000, .burst = 1, .max_wait = absl::ZeroDuration()}, &clock);
  for (int i = 0; i < 10'000; ++i) {
    ASSERT_EQ(budget.Take(), absl::ZeroDuration()) << i;
    clock.Advance(absl::Microseconds(500));
  }
  EXPECT_EQ(budget.Take(), absl::ZeroDuration());
  EXPECT_EQ(budget.Take(), std::nullopt);  // the second in the same instant
}

// With a unit of 1,000 bytes at 10 answers a second, an answer of 2,500 bytes counts 3
// (ceil(2500 / 1000)): 2 turns beyond Take's, 200 ms, charged to the answers after it. An
// answer of exactly one unit, or of none, counts once.
TEST(ReadBudgetTest, ABigAnswerTakesATurnPerStartedUnit) {
  FakeClock clock;
  ReadBudget budget({.rate = 10, .burst = 1, .max_wait = absl::Seconds(1), .unit_bytes = 1000},
                    &clock);
  EXPECT_EQ(budget.Take(), absl::ZeroDuration());
  budget.Charge(2500);
  EXPECT_EQ(budget.Take(), absl::Milliseconds(300));  // its own 100 ms, then 200 ms more
  budget.Charge(1000);
  EXPECT_EQ(budget.Take(), absl::Milliseconds(400));
  budget.Charge(0);
  EXPECT_EQ(budget.Take(), absl::Milliseconds(500));
  // Charging never refuses: ten more units push the next answer past max_wait.
  budget.Charge(11'000);
  EXPECT_EQ(budget.Take(), std::nullopt);
  clock.Advance(absl::Milliseconds(1500));  // 600 + 1,000 ms owed, 1,500 ms passed
  EXPECT_EQ(budget.Take(), absl::Milliseconds(100));
}

// Without a unit, or without a rate, the size is not charged.
TEST(ReadBudgetTest, WithoutAUnitEveryAnswerCountsOnce) {
  FakeClock clock;
  ReadBudget budget({.rate = 10, .burst = 1, .max_wait = absl::Seconds(1)}, &clock);
  EXPECT_EQ(budget.Take(), absl::ZeroDuration());
  budget.Charge(1'000'000);
  EXPECT_EQ(budget.Take(), absl::Milliseconds(100));
  ReadBudget none({.unit_bytes = 1}, &clock);
  none.Charge(1'000'000);
  EXPECT_EQ(none.Take(), absl::ZeroDuration());
}

TEST(ReadBudgetTest, NoRateIsNoBudget) {
  FakeClock clock;
  ReadBudget budget({}, &clock);
  for (int i = 0; i < 1'000; ++i) ASSERT_EQ(budget.Take(), absl::ZeroDuration());
  EXPECT_EQ(budget.TakeAheadIfWaiting(), std::nullopt);
}

// A turn taken ahead (for a connection's next request) only when it must wait: while the
// burst has room nothing is taken, so the requests that come still start at once; once it
// is spent, the turn is taken with its wait as Take would give it, and past max_wait not.
TEST(ReadBudgetTest, ATurnIsTakenAheadOnlyWhenItMustWait) {
  FakeClock clock;
  ReadBudget budget({.rate = 10, .burst = 3, .max_wait = absl::Milliseconds(250)}, &clock);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(budget.TakeAheadIfWaiting(), std::nullopt) << i;  // free now: left
    EXPECT_EQ(budget.Take(), absl::ZeroDuration()) << i;
  }
  EXPECT_EQ(budget.TakeAheadIfWaiting(), absl::Milliseconds(100));
  EXPECT_EQ(budget.TakeAheadIfWaiting(), absl::Milliseconds(200));
  EXPECT_EQ(budget.TakeAheadIfWaiting(), std::nullopt);  // 300 ms > 250 ms: nothing taken
  EXPECT_EQ(budget.Take(), std::nullopt);
  clock.Advance(absl::Milliseconds(100));
  EXPECT_EQ(budget.Take(), absl::Milliseconds(200));  // the two taken ahead came first
}

// From many threads at once (TSan): every turn is handed out once, so n requests at one
// instant wait 0, 1, ..., n - 1 intervals between them, whatever the order.
TEST(ReadBudgetTest, ThreadsShareTheTurns) {
  FakeClock clock;
  ReadBudget budget({.rate = 1000, .burst = 1, .max_wait = absl::Seconds(10)}, &clock);
  std::atomic<int64_t> total_us{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 250; ++i) total_us += absl::ToInt64Microseconds(*budget.Take());
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(total_us.load(), int64_t{1000} * 999 / 2 * 1000);  // Σ k ms, k < 1000
}

}  // namespace
}  // namespace ratingd::testing
