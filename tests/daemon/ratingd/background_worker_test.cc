// BackgroundWorker: tasks run in order on one thread; WaitIdle sees every earlier task. Run
// under ThreadSanitizer in CI (ci-tsan).
#include "daemon/ratingd/background_worker.h"

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

TEST(BackgroundWorkerTest, RunsTasksInOrderAndWaitIdleSeesThemAll) {
  BackgroundWorker worker;
  std::vector<int> order;  // written by the worker only; read after WaitIdle
  for (int i = 0; i < 1000; ++i) worker.Submit([&order, i] { order.push_back(i); });
  worker.WaitIdle();
  ASSERT_EQ(order.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(order[i], i);
}

TEST(BackgroundWorkerTest, WaitIdleForTimesOutWhileATaskRuns) {
  BackgroundWorker worker;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  worker.Submit([released] { released.wait(); });
  EXPECT_FALSE(worker.WaitIdleFor(std::chrono::milliseconds(20)));
  release.set_value();
  EXPECT_TRUE(worker.WaitIdleFor(std::chrono::seconds(10)));
}

// Producers on several threads (like HTTP threads and the consumer thread) and a result
// queue drained by another thread: every task runs exactly once.
TEST(BackgroundWorkerTest, ConcurrentSubmittersAndDestructionRunEveryTask) {
  std::atomic<int> ran{0};
  {
    BackgroundWorker worker;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 250; ++i) worker.Submit([&ran] { ran.fetch_add(1); });
      });
    }
    for (std::thread& t : threads) t.join();
  }  // the destructor runs what is queued, then joins
  EXPECT_EQ(ran.load(), 1000);
}

}  // namespace
}  // namespace ratingd
