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

std::string Record(const std::string& pool, const std::string& model, uint64_t sequence,
                   int64_t committed_at_s = 0) {
  v1::Leaderboard board;
  board.set_pool(pool);
  board.set_model(model);
  board.set_sequence(sequence);
  board.mutable_committed_at()->set_seconds(committed_at_s);
  return board.SerializeAsString();
}

TEST(RemoteBoardsTest, KeepsTheLatestRecordPerPoolAndModel) {
  RemoteBoardsBuilder builder;
  EXPECT_EQ(builder.TakeChanged(), nullptr);
  ASSERT_THAT(builder.Add(0, "a/b/elo", Record("a/b", "elo", 3)), IsOk());
  ASSERT_THAT(builder.Add(0, "a/b/ml", Record("a/b", "ml", 1)), IsOk());
  ASSERT_THAT(builder.Add(0, "a/b/elo", Record("a/b", "elo", 4)), IsOk());
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
  ASSERT_THAT(builder.Add(0, "go/elo", Record("go", "elo", 1)), IsOk());
  ASSERT_THAT(builder.Add(0, "go/sco", Record("go", "sco", 1)), IsOk());
  builder.TakeChanged();
  EXPECT_THAT(builder.Add(0, "go/elo", std::string("\xff\xff", 2)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a Leaderboard")));
  EXPECT_THAT(builder.Add(0, "go/glicko", Record("go", "glicko", 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("model 'glicko'")));
  EXPECT_THAT(builder.Add(0, "go", std::nullopt),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("names no model")));
  EXPECT_EQ(builder.TakeChanged(), nullptr);
  ASSERT_THAT(builder.Add(0, "go/elo", std::nullopt), IsOk());
  std::shared_ptr<const RemoteBoards> boards = builder.TakeChanged();
  ASSERT_NE(boards, nullptr);
  EXPECT_EQ(boards->pools.at("go")[0], nullptr);
  ASSERT_THAT(builder.Add(0, "go/sco", std::nullopt), IsOk());
  EXPECT_TRUE(builder.TakeChanged()->pools.empty());               // no leaderboard left: no pool
  ASSERT_THAT(builder.Add(0, "chess/elo", std::nullopt), IsOk());  // unknown: nothing to forget
}

TEST(RemoteBoardsTest, ARecordFromAnotherPartitionReplacesABoardOnlyIfCommittedNoEarlier) {
  // As after an upgrade: go/elo's old records stay in partition 2, where the key hashed;
  // the new ones come from partition 0, the pool's results partition. Whichever partition
  // is read first, the board committed last wins.
  RemoteBoardsBuilder builder;
  ASSERT_THAT(builder.Add(0, "go/elo", Record("go", "elo", 7, 200)), IsOk());
  ASSERT_THAT(builder.Add(2, "go/elo", Record("go", "elo", 5, 100)), IsOk());  // older: kept out
  EXPECT_EQ(builder.TakeChanged()->pools.at("go")[0]->sequence(), 7u);
  ASSERT_THAT(builder.Add(2, "go/elo", std::nullopt), IsOk());  // another partition's tombstone
  EXPECT_EQ(builder.TakeChanged(), nullptr);
  // In its own partition, log order decides, whatever the times say.
  ASSERT_THAT(builder.Add(0, "go/elo", Record("go", "elo", 8, 150)), IsOk());
  EXPECT_EQ(builder.TakeChanged()->pools.at("go")[0]->sequence(), 8u);
  // A board committed no earlier moves the key to the partition it came from.
  ASSERT_THAT(builder.Add(2, "go/elo", Record("go", "elo", 9, 150)), IsOk());
  EXPECT_EQ(builder.TakeChanged()->pools.at("go")[0]->sequence(), 9u);
  ASSERT_THAT(builder.Add(0, "go/elo", Record("go", "elo", 3, 120)), IsOk());  // 0 is old now
  EXPECT_EQ(builder.TakeChanged(), nullptr);
  ASSERT_THAT(builder.Add(2, "go/elo", std::nullopt), IsOk());  // its own partition's tombstone
  EXPECT_TRUE(builder.TakeChanged()->pools.empty());
  // Forgotten: the next record is taken from any partition.
  ASSERT_THAT(builder.Add(0, "go/elo", Record("go", "elo", 1, 50)), IsOk());
  EXPECT_EQ(builder.TakeChanged()->pools.at("go")[0]->sequence(), 1u);
}

}  // namespace
}  // namespace ratingd
