// ratingd's --inactive-after (docs/MODELS.md §12): the published leaderboard lists the
// inactive agents after the ranked ones, marked; the HTTP answer leaves them out unless
// ?include_inactive=true; a returning agent is ranked again. By hand from the event times:
// a beats b at T0, c beats d 2 days later, D = 1 day.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "daemon/ratingd/http_api.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/view_answers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/io/game_result_proto.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::testing::ElementsAre;

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);

void Play(LivePool& pool, const std::string& winner, const std::string& loser, absl::Time t) {
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  const google::protobuf::Timestamp stamp = ratings::io::TimestampOf(t);
  ASSERT_THAT(pool.Apply(Order({winner, loser}), winner + loser, &stamp, -1, &deltas, &job),
              IsOk());
}

std::vector<std::string> Agents(const google::protobuf::RepeatedPtrField<v1::RankedAgent>& r) {
  std::vector<std::string> out;
  for (const v1::RankedAgent& e : r) out.push_back(e.agent());
  return out;
}

TEST(LivePoolInactivityTest, BoardsMarkReportsAndAnswersLeaveOut) {
  LivePoolConfig config;
  config.options.ml = false;
  config.options.inactive_after = absl::Hours(24);
  std::unique_ptr<LivePool> pool = *LivePool::Create("p", config);
  Play(*pool, "a", "b", kT0);
  Play(*pool, "c", "d", kT0 + absl::Hours(48));
  const v1::Leaderboard board = pool->Leaderboard(ratings::Model::kElo);
  EXPECT_THAT(Agents(board.ranking()), ElementsAre("c", "d", "a", "b"));
  EXPECT_EQ(board.ranking(1).rank(), 2u);
  EXPECT_TRUE(board.ranking(2).inactive());
  EXPECT_EQ(board.ranking(2).rank(), 0u);
  EXPECT_EQ(board.ranking(1).rank_high(), 2u);  // rank intervals among c and d only
  EXPECT_THAT(Agents(pool->Report(ratings::Model::kElo, 0).ranking()), ElementsAre("c", "d"));
  EXPECT_THAT(Agents(pool->Report(ratings::Model::kElo, 1).ranking()), ElementsAre("c"));
  EXPECT_THAT(Agents(ReportFromBoard(board, 0).ranking()), ElementsAre("c", "d"));
  EXPECT_THAT(Agents(ReportFromBoard(board, 3, /*include_inactive=*/true).ranking()),
              ElementsAre("c", "d", "a"));
  // a returns: ranked again, b still out.
  Play(*pool, "a", "d", kT0 + absl::Hours(49));
  EXPECT_THAT(Agents(pool->Report(ratings::Model::kElo, 0).ranking()),
              ::testing::UnorderedElementsAre("a", "c", "d"));
  // The activity clock is in the snapshot.
  absl::StatusOr<std::unique_ptr<LivePool>> restored =
      LivePool::FromSnapshot(pool->ToSnapshot(), config);
  ASSERT_THAT(restored, IsOk());
  EXPECT_EQ(ReportFromBoard((*restored)->Leaderboard(ratings::Model::kSco), 0).ranking_size(), 3);
}

TEST(LivePoolInactivityTest, IncludeInactiveParameter) {
  Query q;
  EXPECT_THAT(ParseIncludeInactive("", q), IsOk());
  EXPECT_FALSE(q.include_inactive);
  EXPECT_THAT(ParseIncludeInactive("true", q), IsOk());
  EXPECT_TRUE(q.include_inactive);
  EXPECT_EQ(ParseIncludeInactive("yes", q).message(),
            "include_inactive must be true or false (got 'yes')");
}

}  // namespace
}  // namespace ratingd
