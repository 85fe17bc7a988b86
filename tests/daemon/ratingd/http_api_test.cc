// The HTTP API's request parsing.
#include "daemon/ratingd/http_api.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::_;
using ::testing::HasSubstr;

TEST(HttpApiTest, ParsesLeaderboardRequests) {
  auto q = ParseLeaderboardRequest("/v1/pools/chess/blitz/leaderboard", "sco", "10");
  ASSERT_THAT(q, IsOk()) << q.status();
  EXPECT_EQ(q->pool, "chess/blitz");
  EXPECT_EQ(q->model, ratings::Model::kSco);
  EXPECT_EQ(q->limit, 10u);
  EXPECT_THAT(ParseLeaderboardRequest("/v1/pools//leaderboard", "elo", ""),
              StatusIs(absl::StatusCode::kNotFound, _));
  EXPECT_THAT(ParseLeaderboardRequest("/v2/x", "elo", ""),
              StatusIs(absl::StatusCode::kNotFound, _));
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
