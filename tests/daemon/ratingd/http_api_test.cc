// The HTTP API's request parsing.
#include <string>

#include "daemon/ratingd/http_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::HasSubstr;

TEST(HttpApiTest, ParsesLeaderboardRequests) {
  auto q = ParseLeaderboardRequest("/v1/pools/chess/blitz/leaderboard", "sco", "10");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->pool, "chess/blitz");
  EXPECT_EQ(q->model, "sco");
  EXPECT_EQ(q->limit, 10u);
  EXPECT_TRUE(
      absl::IsNotFound(ParseLeaderboardRequest("/v1/pools//leaderboard", "elo", "").status()));
  EXPECT_TRUE(absl::IsNotFound(ParseLeaderboardRequest("/v2/x", "elo", "").status()));
  EXPECT_THAT(
      std::string(
          ParseLeaderboardRequest("/v1/pools/p/leaderboard", "glicko", "").status().message()),
      HasSubstr("model must be elo, sco or ml"));
  EXPECT_THAT(
      std::string(
          ParseLeaderboardRequest("/v1/pools/p/leaderboard", "ml", "-1").status().message()),
      HasSubstr("limit"));
}

}  // namespace
}  // namespace ratingd
