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
      HasSubstr("model must be elo, sco, ml or glicko2"));
  EXPECT_THAT(
      std::string(
          ParseLeaderboardRequest("/v1/pools/p/leaderboard", "ml", "-1").status().message()),
      HasSubstr("limit"));
}

TEST(HttpApiTest, ParsesSuggestRequestsWithDefaultsAndClamping) {
  auto q = ParseSuggestRequest("/v1/pools/chess/blitz/suggest", "ml", "", "", "");
  ASSERT_THAT(q, IsOk()) << q.status();
  EXPECT_EQ(q->kind, Query::Kind::kSuggest);
  EXPECT_EQ(q->pool, "chess/blitz");
  EXPECT_EQ(q->suggest.strategy, ratings::active::SuggestStrategy::kMl);
  EXPECT_EQ(q->suggest.n, 10u);
  EXPECT_EQ(q->suggest.exploration, 0.1);
  EXPECT_EQ(q->suggest.seed, 0u);
  q = ParseSuggestRequest("/v1/pools/p/suggest", "ucb", "5000", "1", "18446744073709551615");
  ASSERT_THAT(q, IsOk()) << q.status();
  EXPECT_EQ(q->suggest.n, ratings::active::kMaxSuggestions);  // clamped
  EXPECT_EQ(q->suggest.exploration, 1.0);
  EXPECT_EQ(q->suggest.seed, 18446744073709551615u);
}

TEST(HttpApiTest, SuggestRequestErrorsNameTheParameter) {
  EXPECT_THAT(ParseSuggestRequest("/v1/pools//suggest", "ml", "", "", ""),
              StatusIs(absl::StatusCode::kNotFound, _));
  const auto message = [](const std::string& strategy, const std::string& n,
                          const std::string& exploration, const std::string& seed) {
    const absl::Status s =
        ParseSuggestRequest("/v1/pools/p/suggest", strategy, n, exploration, seed).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    return std::string(s.message());
  };
  EXPECT_THAT(message("", "", "", ""), HasSubstr("strategy must be uniform, ucb or ml"));
  EXPECT_THAT(message("elo", "", "", ""), HasSubstr("(got 'elo')"));
  EXPECT_THAT(message("ml", "0", "", ""), HasSubstr("n must be an integer >= 1"));
  EXPECT_THAT(message("ml", "-3", "", ""), HasSubstr("n must be"));
  EXPECT_THAT(message("ml", "", "1.5", ""), HasSubstr("exploration must be a number in [0, 1]"));
  EXPECT_THAT(message("ml", "", "-0.1", ""), HasSubstr("exploration"));
  EXPECT_THAT(message("ml", "", "nan", ""), HasSubstr("exploration"));
  EXPECT_THAT(message("ml", "", "", "x"), HasSubstr("seed must be"));
}

}  // namespace
}  // namespace ratingd
