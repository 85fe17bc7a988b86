// Activity (ratings/activity.h) and the pool's activity clock: which agents --inactive-after
// leaves out, by hand from the event times of each case.
#include "ratings/activity.h"

#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/pool.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);

TEST(ActivityTest, InactiveAfterMoreThanDOfEventTime) {
  Activity activity(absl::Hours(10));
  activity.Resize(4);
  const std::vector<AgentId> ab = {0, 1}, bc = {1, 2};
  activity.Record(ab, kT0);
  activity.Record(bc, kT0 + absl::Hours(10));  // a is exactly 10 h old: still active
  EXPECT_FALSE(activity.Inactive(0));
  const std::vector<AgentId> c_alone = {2, 1};
  activity.Record(c_alone, kT0 + absl::Hours(10) + absl::Seconds(1));
  EXPECT_TRUE(activity.Inactive(0));   // 10 h 1 s
  EXPECT_FALSE(activity.Inactive(1));  // played at the latest
  EXPECT_FALSE(activity.Inactive(3));  // never played: no time, active
  // An older result moves nothing back; an untimed one counts at the latest time.
  activity.Record(ab, kT0 - absl::Hours(5));
  EXPECT_TRUE(activity.Inactive(0));
  activity.Record(ab, std::nullopt);
  EXPECT_FALSE(activity.Inactive(0));  // a returns on its next result
  EXPECT_EQ(activity.state().latest, kT0 + absl::Hours(10) + absl::Seconds(1));
}

TEST(ActivityTest, NoTimesNoInactivity) {
  Activity activity(absl::ZeroDuration());
  activity.Resize(2);
  const std::vector<AgentId> ab = {0, 1};
  activity.Record(ab, std::nullopt);
  EXPECT_FALSE(activity.Inactive(0));
}

TEST(ActivityTest, ThePoolKeepsItsClockOnlyWhenAskedAndRestoresIt) {
  EXPECT_EQ(Pool::Create({})->activity(), nullptr);
  PoolOptions options;
  options.inactive_after = -absl::Seconds(1);
  EXPECT_THAT(Pool::Create(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("inactive_after")));
  options.inactive_after = absl::Hours(1);
  Pool pool = *Pool::Create(options);
  ASSERT_THAT(pool.Apply(Order({"a", "b"}), kT0), IsOk());
  ASSERT_THAT(pool.Apply(Order({"c", "b"}), kT0 + absl::Hours(2)), IsOk());
  EXPECT_TRUE(pool.Inactive(*pool.index().Find("a")));
  EXPECT_FALSE(pool.Inactive(*pool.index().Find("c")));
  const PoolState state = pool.ExportState();
  ASSERT_TRUE(state.activity.has_value());
  Pool restored = *Pool::FromState(options, state);
  EXPECT_TRUE(restored.Inactive(*restored.index().Find("a")));
  // A state kept without the clock: nobody is inactive until it plays again.
  PoolState without = state;
  without.activity.reset();
  Pool fresh = *Pool::FromState(options, without);
  EXPECT_FALSE(fresh.Inactive(*fresh.index().Find("a")));
  PoolState bad = state;
  bad.activity->last.pop_back();
  EXPECT_THAT(Pool::FromState(options, bad).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("activity: 2 last times")));
}

}  // namespace
}  // namespace ratings
