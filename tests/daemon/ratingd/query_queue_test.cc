// QueryQueue: HTTP threads ask, the consumer thread answers. Run under ThreadSanitizer in CI
// (ci-tsan).
#include "daemon/ratingd/query_queue.h"

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

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
