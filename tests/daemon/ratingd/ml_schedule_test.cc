// The ml schedule (LivePool::MlDue, docs/ARCHITECTURE.md §3): a solve every ml_solve_every
// results, held back to one per ml_solve_min_interval of record time unless the pool's
// results grew by a tenth since the last solve. Expected solve points are computed by hand
// in each test's comment.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/partition_state.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratingd::testing::Applied;
using ::ratingd::testing::Apply;
using ::ratingd::testing::Bytes;
using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

LivePoolConfig Timed(uint64_t every, absl::Duration interval) {
  LivePoolConfig config;
  config.ml_solve_every = every;
  config.ml_solve_min_interval = interval;
  config.bootstrap_replicas = 0;
  return config;
}

// Applies results first..first+times.size()-1 (a two-agent game each, record i stamped
// times[i - first]) and returns the pool's result count after each one that scheduled a solve;
// every job is solved and accepted at once, as the consumer would.
std::vector<uint64_t> Feed(LivePool& pool, int first, const std::vector<int64_t>& times) {
  std::vector<uint64_t> solves;
  for (size_t i = 0; i < times.size(); ++i) {
    const int n = first + static_cast<int>(i);
    absl::StatusOr<Applied> a =
        Apply(pool, Order({absl::StrCat("a", n % 7), absl::StrCat("a", (n + 3) % 7)}),
              absl::StrCat("g", n), times[i]);
    EXPECT_THAT(a, IsOk());
    if (a.ok() && a->job) {
      solves.push_back(a->job->results);
      pool.AcceptMlSolution(LivePool::Solve(*std::move(a->job)));
    }
  }
  return solves;
}

// Interval 0: every 10 results, whatever the records' times (the schedule before the
// interval existed).
TEST(MlScheduleTest, ZeroIntervalSolvesEveryNResults) {
  auto pool = *LivePool::Create("p", Timed(10, absl::ZeroDuration()));
  EXPECT_THAT(Feed(*pool, 1, std::vector<int64_t>(35, 5'000)), ElementsAre(10u, 20u, 30u));
}

// Every result (every = 1) of 100 stamped at the same instant: the first solve is due at
// once (no solve before it), then the time bound holds each back and only the catch-up
// clause fires, at the first count r with 10 (r - s) >= r after a solve at s, i.e.
// r = ceil(10 s / 9): 1..10 (10 (r - (r-1)) = 10 >= r), then 12, 14, 16, 18, 20, 23, 26,
// 29, 33, 37, 42, 47, 53, 59, 66, 74, 83, 93 (next would be 104).
TEST(MlScheduleTest, SameInstantSolvesOnlyToCatchUpByATenth) {
  auto pool = *LivePool::Create("p", Timed(1, absl::Seconds(1)));
  EXPECT_THAT(Feed(*pool, 1, std::vector<int64_t>(100, 5'000)),
              ElementsAre(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 12u, 14u, 16u, 18u, 20u, 23u,
                          26u, 29u, 33u, 37u, 42u, 47u, 53u, 59u, 66u, 74u, 83u, 93u));
  // The solve at 93 was stamped 5,000 ms. Result 101 at 5,999 ms: 999 ms later, and 8
  // results are under a tenth of 101: held back. Result 102 at 6,000 ms: a second later: due.
  EXPECT_THAT(Feed(*pool, 101, {5'999}), ElementsAre());
  EXPECT_THAT(Feed(*pool, 102, {6'000}), ElementsAre(102u));
  // A record without a timestamp falls back to the count (due: 1 result since); the next
  // timed record then has no time to measure from, so it is due by count as well; the one
  // after, 1 ms later, is held back again.
  EXPECT_THAT(Feed(*pool, 103, {-1, 6'001, 6'002}), ElementsAre(103u, 104u));
}

// The count comes first, then time by each record's own stamp. every = 50, 1,000 results
// stamped 0: due at 50 (no solve before), then by catch-up only while 10 (r - s) >= r:
// 100, 150, ..., 500 (10 x 50 >= r up to 500), then r = ceil(10 s / 9) with at least 50
// since: 556, 618, 687, 764, 849, 944 (next 1,049).
TEST(MlScheduleTest, CountFirstThenRecordTime) {
  auto pool = *LivePool::Create("p", Timed(50, absl::Seconds(1)));
  EXPECT_THAT(Feed(*pool, 1, std::vector<int64_t>(1'000, 0)),
              ElementsAre(50u, 100u, 150u, 200u, 250u, 300u, 350u, 400u, 450u, 500u, 556u, 618u,
                          687u, 764u, 849u, 944u));
  // Result 1,001 is 57 past the solve at 944 (stamped 0), too few to catch up (570 <
  // 1,001), and stamped 999 ms: held back. 1,002 at 1,000 ms: due.
  EXPECT_THAT(Feed(*pool, 1'001, {999}), ElementsAre());
  EXPECT_THAT(Feed(*pool, 1'002, {1'000}), ElementsAre(1'002u));
  // 50 records stamped before that solve (another producer's clock, 500 ms) wait, though
  // the last of them is 50 past it; the next, stamped 2,000 ms, is due.
  std::vector<int64_t> behind(50, 500);
  behind.push_back(2'000);
  EXPECT_THAT(Feed(*pool, 1'003, behind), ElementsAre(1'053u));
}

// Snapshot anywhere, restore, continue: the same solve points as the uninterrupted run
// (the schedule's count and time are in the snapshot).
TEST(MlScheduleTest, SnapshotKeepsTheSchedule) {
  const LivePoolConfig config = Timed(5, absl::Seconds(1));
  std::vector<int64_t> times;
  for (int i = 0; i < 400; ++i) times.push_back(1'000 + 37 * i);  // 27 results a second
  auto whole = *LivePool::Create("p", config);
  const std::vector<uint64_t> expected = Feed(*whole, 0, times);
  for (const size_t cut : {size_t{3}, size_t{150}, size_t{251}, size_t{399}}) {
    auto first = *LivePool::Create("p", config);
    std::vector<uint64_t> got = Feed(*first, 0, {times.begin(), times.begin() + cut});
    std::vector<DedupWindow::Segment> segments;
    for (const auto& s : first->dedup_window().sealed()) segments.push_back(*s);
    auto second = LivePool::FromSnapshot(first->ToSnapshot(), config, std::move(segments));
    ASSERT_THAT(second, IsOk()) << second.status();
    const std::vector<uint64_t> rest =
        Feed(**second, static_cast<int>(cut), {times.begin() + cut, times.end()});
    got.insert(got.end(), rest.begin(), rest.end());
    EXPECT_THAT(got, ElementsAreArray(expected)) << "cut " << cut;
    EXPECT_EQ(Bytes((*second)->ToSnapshot()), Bytes(whole->ToSnapshot())) << "cut " << cut;
  }
}

// A snapshot written before the time bound carries no schedule: the pool solved at every
// multiple of ml_solve_every, so the last solve was at ml_sequence * every, with no time
// to hold the next one back.
TEST(MlScheduleTest, SnapshotWithoutScheduleRestoresTheCountSchedule) {
  auto before = *LivePool::Create("p", Timed(10, absl::ZeroDuration()));
  ASSERT_THAT(Feed(*before, 0, std::vector<int64_t>(25, 9'000)), ElementsAre(10u, 20u));
  v1::PoolSnapshot snapshot = before->ToSnapshot();
  snapshot.clear_ml_scheduled_results();
  snapshot.clear_ml_scheduled_time_ms();
  const LivePoolConfig timed = Timed(10, absl::Seconds(1));
  auto after = *LivePool::FromSnapshot(snapshot, timed);
  // Result 30 is 10 past the last solve (20), and no time holds it back: due.
  EXPECT_THAT(Feed(*after, 25, std::vector<int64_t>(5, 9'000)), ElementsAre(30u));
  EXPECT_EQ(after->ToSnapshot().ml_scheduled_results(), 30u);
  EXPECT_EQ(after->ToSnapshot().ml_scheduled_time_ms(), 9'000);

  v1::PoolSnapshot bad = before->ToSnapshot();
  bad.set_ml_scheduled_results(26);
  EXPECT_THAT(LivePool::FromSnapshot(bad, timed).status().message(),
              HasSubstr("ml schedule (26 results at"));
}

// The interval is part of the parameters a snapshot must match, printed only when set so
// that a count-only schedule's text is the one earlier versions wrote.
TEST(MlScheduleTest, FingerprintNamesTheIntervalOnlyWhenSet) {
  const std::string count_only = ParamsFingerprint(Timed(100, absl::ZeroDuration()));
  EXPECT_THAT(count_only, ::testing::EndsWith("ml_solve_every=100;max_displaced=1000"));
  EXPECT_EQ(ParamsFingerprint(Timed(100, absl::Milliseconds(1500))),
            count_only + ";ml_solve_min_interval=1.5s");
}

// The work bound (LivePoolConfig::ml_solve_work): a job of an n-agent pool may run
// max(1, work / n²) iterations, at most ml.max_iterations. By hand: 7 agents (a0..a6 after
// the first results) and work 490 give 490 / 49 = 10; work 10 gives max(1, 0) = 1; work 0
// (no bound) gives ml.max_iterations; a bound above ml.max_iterations gives it too.
TEST(MlScheduleTest, SolveWorkBoundsTheIterationsOfEachJob) {
  for (const auto& [work, expected] : std::vector<std::pair<uint64_t, int64_t>>{
           {490, 10}, {10, 1}, {0, 1'000'000}, {490'000'000'000, 1'000'000}}) {
    LivePoolConfig config = Timed(20, absl::ZeroDuration());
    config.ml_solve_work = work;
    auto pool = *LivePool::Create("p", config);
    std::optional<MlJob> job;
    for (int n = 1; n <= 20; ++n) {
      absl::StatusOr<Applied> a =
          Apply(*pool, Order({absl::StrCat("a", n % 7), absl::StrCat("a", (n + 3) % 7)}),
                absl::StrCat("g", n), 5'000);
      ASSERT_THAT(a, IsOk());
      if (a->job) job = std::move(a->job);
    }
    ASSERT_TRUE(job.has_value());
    ASSERT_EQ(job->copy->index().size(), 7u);
    EXPECT_EQ(job->max_iterations, expected) << work;
    const MlSolution solution = LivePool::Solve(*std::move(job));
    EXPECT_LE(solution.iterations, static_cast<uint64_t>(expected)) << work;
  }
}

}  // namespace
}  // namespace ratingd
