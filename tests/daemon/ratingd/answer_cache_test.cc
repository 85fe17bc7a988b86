// AnswerCache: a leaderboard's answer is rendered once per (leaderboard object, limit,
// owner), a new leaderboard object is rendered again even at an address a freed one had,
// errors are not kept, and the size stays bounded. Expected values are the counts of render
// calls, by construction of each case.
#include "daemon/ratingd/answer_cache.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ratingd {
namespace {

std::shared_ptr<const v1::Leaderboard> Board(const std::string& pool, uint64_t sequence) {
  auto board = std::make_shared<v1::Leaderboard>();
  board->set_pool(pool);
  board->set_sequence(sequence);
  return board;
}

// render() for `board`: its pool and sequence, and how many calls there were.
struct Renderer {
  int calls = 0;
  QueryReply operator()(const v1::Leaderboard& board, size_t limit, int status = 200) {
    ++calls;
    return {.status = status,
            .body = board.pool() + "/" + std::to_string(board.sequence()) + "/" +
                    std::to_string(limit)};
  }
};

TEST(AnswerCacheTest, EachBoardLimitAndOwnerIsRenderedOnce) {
  AnswerCache cache;
  Renderer r;
  const auto chess = Board("chess", 3);
  for (int i = 0; i < 3; ++i) {
    const QueryReply reply = cache.Answer(chess, 10, true, [&] { return r(*chess, 10); });
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, "chess/3/10");
  }
  EXPECT_EQ(r.calls, 1);
  EXPECT_EQ(cache.Answer(chess, 0, true, [&] { return r(*chess, 0); }).body, "chess/3/0");
  EXPECT_EQ(cache.Answer(chess, 10, false, [&] { return r(*chess, 10); }).body, "chess/3/10");
  EXPECT_EQ(r.calls, 3);
  EXPECT_EQ(cache.renders(), 3u);
  EXPECT_EQ(cache.size(), 3u);
}

TEST(AnswerCacheTest, ANewBoardIsRenderedAgainEvenAtAFreedBoardsAddress) {
  AnswerCache cache;
  Renderer r;
  auto first = Board("chess", 1);
  const v1::Leaderboard* address = first.get();
  EXPECT_EQ(cache.Answer(first, 5, true, [&] { return r(*first, 5); }).body, "chess/1/5");
  first.reset();
  // Allocate until a board lands where the freed one was (the allocator usually gives
  // that block back at once); either way the new board must be rendered.
  std::vector<std::shared_ptr<const v1::Leaderboard>> later;
  for (int i = 0; i < 64 && (later.empty() || later.back().get() != address); ++i) {
    later.push_back(Board("chess", 2));
  }
  const auto& second = later.back();
  EXPECT_EQ(cache.Answer(second, 5, true, [&] { return r(*second, 5); }).body, "chess/2/5");
  EXPECT_EQ(r.calls, 2);
}

TEST(AnswerCacheTest, ErrorsAreNotKept) {
  AnswerCache cache;
  Renderer r;
  const auto chess = Board("chess", 1);
  EXPECT_EQ(cache.Answer(chess, 1, true, [&] { return r(*chess, 1, 500); }).status, 500);
  EXPECT_EQ(cache.Answer(chess, 1, true, [&] { return r(*chess, 1); }).status, 200);
  EXPECT_EQ(r.calls, 2);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(AnswerCacheTest, FreedBoardsGoFirstWhenFullThenEverything) {
  AnswerCache cache(2);
  Renderer r;
  auto a = Board("a", 1);
  const auto b = Board("b", 1);
  cache.Answer(a, 1, true, [&] { return r(*a, 1); });
  cache.Answer(b, 1, true, [&] { return r(*b, 1); });
  a.reset();
  const auto c = Board("c", 1);
  cache.Answer(c, 1, true, [&] { return r(*c, 1); });  // drops a's answer only
  EXPECT_EQ(cache.size(), 2u);
  cache.Answer(b, 1, true, [&] { return r(*b, 1); });  // still kept
  EXPECT_EQ(r.calls, 3);
  const auto d = Board("d", 1);
  cache.Answer(d, 1, true, [&] { return r(*d, 1); });  // b and c live: all dropped
  EXPECT_EQ(cache.size(), 1u);
  cache.Answer(b, 1, true, [&] { return r(*b, 1); });
  EXPECT_EQ(r.calls, 5);
}

}  // namespace
}  // namespace ratingd
