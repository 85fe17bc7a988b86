// The leaderboards topic's records folded into RemoteBoards (remote_boards.h): the latest
// record per (pool, model) in log order, tombstones forgetting, bad records refused without
// changing anything. Expected boards are the records' own messages.
#include "daemon/ratingd/remote_boards.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

std::string Record(const std::string& pool, const std::string& model, uint64_t sequence) {
  v1::Leaderboard board;
  board.set_pool(pool);
  board.set_model(model);
  board.set_sequence(sequence);
  return board.SerializeAsString();
}

TEST(RemoteBoardsTest, KeepsTheLatestRecordPerPoolAndModel) {
  RemoteBoardsBuilder builder;
  EXPECT_EQ(builder.TakeChanged(), nullptr);
  ASSERT_THAT(builder.Add("a/b/elo", Record("a/b", "elo", 3)), IsOk());
  ASSERT_THAT(builder.Add("a/b/ml", Record("a/b", "ml", 1)), IsOk());
  ASSERT_THAT(builder.Add("a/b/elo", Record("a/b", "elo", 4)), IsOk());
  std::shared_ptr<const RemoteBoards> boards = builder.TakeChanged();
  ASSERT_NE(boards, nullptr);
  ASSERT_EQ(boards->pools.size(), 1u);
  const RemoteBoards::Boards& pool = boards->pools.at("a/b");
  EXPECT_EQ(pool[0]->sequence(), 4u);
  EXPECT_EQ(pool[1], nullptr);
  EXPECT_EQ(pool[2]->sequence(), 1u);
  EXPECT_EQ(builder.TakeChanged(), nullptr);  // nothing since
}

TEST(RemoteBoardsTest, TombstonesForgetAndBadRecordsChangeNothing) {
  RemoteBoardsBuilder builder;
  ASSERT_THAT(builder.Add("go/elo", Record("go", "elo", 1)), IsOk());
  ASSERT_THAT(builder.Add("go/sco", Record("go", "sco", 1)), IsOk());
  builder.TakeChanged();
  EXPECT_THAT(builder.Add("go/elo", std::string("\xff\xff", 2)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a Leaderboard")));
  EXPECT_THAT(builder.Add("go/glicko", Record("go", "glicko", 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("model 'glicko'")));
  EXPECT_THAT(builder.Add("go", std::nullopt),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("names no model")));
  EXPECT_EQ(builder.TakeChanged(), nullptr);
  ASSERT_THAT(builder.Add("go/elo", std::nullopt), IsOk());
  std::shared_ptr<const RemoteBoards> boards = builder.TakeChanged();
  ASSERT_NE(boards, nullptr);
  EXPECT_EQ(boards->pools.at("go")[0], nullptr);
  ASSERT_THAT(builder.Add("go/sco", std::nullopt), IsOk());
  EXPECT_TRUE(builder.TakeChanged()->pools.empty());            // no leaderboard left: no pool
  ASSERT_THAT(builder.Add("chess/elo", std::nullopt), IsOk());  // unknown: nothing to forget
}

}  // namespace
}  // namespace ratingd
