#include "ratings/games/task_team.h"

#include <atomic>
#include <cstddef>
#include <vector>

#include "gtest/gtest.h"

namespace ratings::games {
namespace {

// Every task of every Run runs exactly once, and all have run when Run returns, for any
// thread count and task count (1 runs inline; counts below, equal to and above the team's
// size). Under ThreadSanitizer this also checks the hand-over between Runs.
TEST(TaskTeamTest, EveryTaskOnceAndDoneWhenRunReturns) {
  for (const int threads : {1, 2, 3, 8}) {
    TaskTeam team(threads);
    for (int round = 0; round < 2'000; ++round) {
      const size_t n = 1 + static_cast<size_t>(round % 13);
      std::vector<int> ran(n, 0);  // disjoint outputs, as the solvers' tasks write
      team.Run(n, [&](size_t k) { ++ran[k]; });
      for (size_t k = 0; k < n; ++k) {
        ASSERT_EQ(ran[k], 1) << threads << " threads, round " << round << ", task " << k;
      }
    }
  }
}

// A task that takes long on one thread while the others finish: Run still waits for it.
TEST(TaskTeamTest, WaitsForTheSlowestTask) {
  TaskTeam team(2);
  for (int round = 0; round < 50; ++round) {
    std::atomic<int> finished{0};
    team.Run(4, [&](size_t k) {
      if (k == 0) {
        volatile double x = 0;
        for (int i = 0; i < 200'000; ++i) x = x + 1;
      }
      finished.fetch_add(1);
    });
    ASSERT_EQ(finished.load(), 4);
  }
}

// Zero tasks, and a team destroyed without any Run or right after one, end cleanly.
TEST(TaskTeamTest, EmptyRunsAndDestruction) {
  { TaskTeam idle(4); }
  TaskTeam team(3);
  team.Run(0, [](size_t) { FAIL(); });
  int ran = 0;
  team.Run(1, [&](size_t) { ++ran; });
  EXPECT_EQ(ran, 1);
}

}  // namespace
}  // namespace ratings::games
