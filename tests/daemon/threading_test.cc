// The daemon's thread hand-offs, run under ThreadSanitizer in CI (ci-tsan):
// BackgroundWorker (tasks in order on one thread; WaitIdle sees every earlier task) and
// QueryQueue (HTTP threads ask, the consumer thread answers).
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "daemon/background_worker.h"
#include "daemon/query_queue.h"
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

// Eight asking threads against an owner that answers between "records": every asker gets
// its own answer (the pool name echoed back).
TEST(QueryQueueTest, ConcurrentAskersGetTheirOwnReplies) {
  QueryQueue queue;
  std::atomic<bool> stop{false};
  std::thread owner([&] {
    while (!stop.load()) {
      for (auto& [query, promise] : queue.TakeAll()) {
        promise->set_value({200, query.pool});
      }
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> askers;
  std::atomic<int> right{0};
  for (int t = 0; t < 8; ++t) {
    askers.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        Query q;
        q.pool = std::to_string(t * 1000 + i);
        const QueryReply reply = queue.Ask(q, absl::Seconds(30));
        if (reply.status == 200 && reply.body == q.pool) right.fetch_add(1);
      }
    });
  }
  for (std::thread& t : askers) t.join();
  stop = true;
  owner.join();
  EXPECT_EQ(right.load(), 800);
  EXPECT_FALSE(queue.pending());
}

// No owner: the asker times out with 503; answering late is harmless.
TEST(QueryQueueTest, UnansweredQueryTimesOutAndLateAnswerIsDropped) {
  QueryQueue queue;
  const QueryReply reply = queue.Ask(Query{}, absl::Milliseconds(20));
  EXPECT_EQ(reply.status, 503);
  EXPECT_NE(reply.body.find("busy"), std::string::npos);
  EXPECT_TRUE(queue.pending());
  for (auto& [query, promise] : queue.TakeAll()) promise->set_value({200, "late"});
  EXPECT_FALSE(queue.pending());
}

}  // namespace
}  // namespace ratingd
