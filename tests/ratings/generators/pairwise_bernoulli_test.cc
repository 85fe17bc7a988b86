#include "ratings/generators/pairwise_bernoulli.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;
using Outcome = PairwiseGame::Outcome;

TEST(PairwiseBernoulliTest, ParsesPairs) {
  auto pairs = ParseBernoulliPairs("A>B:0.75,B>C:0.51");
  ASSERT_THAT(pairs, IsOk());
  ASSERT_EQ(pairs->size(), 2u);
  EXPECT_EQ((*pairs)[0].first, "A");
  EXPECT_EQ((*pairs)[0].second, "B");
  EXPECT_EQ((*pairs)[0].p, 0.75);
  EXPECT_EQ((*pairs)[1].first, "B");
  EXPECT_EQ((*pairs)[1].second, "C");
  EXPECT_EQ((*pairs)[1].p, 0.51);
}

TEST(PairwiseBernoulliTest, RejectsBadPairs) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"A>B", "'A>B' is not FIRST>SECOND:P"},
      {"AB:0.5", "'AB:0.5' is not FIRST>SECOND:P"},
      {"A>B:x", "'A>B:x': 'x' is not a number"},
      {"A>B>C:0.5", "names more than two agents"},
      {">B:0.5", "an agent name is empty"},
      {"A>A:0.5", "an agent cannot play itself"},
      {"A>B:1.5", "p 1.5 is outside [0, 1]"},
      {"A>B:0.6,B>A:0.3", "the pair of A and B is listed twice"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    EXPECT_THAT(ParseBernoulliPairs(text).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
  }
}

// Counts against the binomial: 10,000 games, tie 0.1 -> draws ~ Bin(10000, 0.1), mean 1000,
// sd 30; first wins among the rest ~ Bin(n, 0.75), sd ~ 46. Bounds at 5 sd.
TEST(PairwiseBernoulliTest, OutcomesFollowTheProbabilities) {
  PairwiseBernoulliOptions options{
      .pairs = {{"A", "B", 0.75}, {"B", "C", 0.5}}, .games = 10000, .tie = 0.1, .seed = 4};
  auto generated = GeneratePairwiseBernoulli(options);
  ASSERT_THAT(generated, IsOk());
  EXPECT_THAT(generated->names, ::testing::ElementsAre("A", "B", "C"));
  ASSERT_EQ(generated->games.size(), 20000u);
  int64_t ab = 0, draws = 0, a_wins = 0;
  for (const PairwiseGame& g : generated->games) {
    if (g.first != 0) continue;
    ++ab;
    EXPECT_EQ(g.second, 1u);
    if (g.outcome == Outcome::kDraw) ++draws;
    if (g.outcome == Outcome::kFirstWins) ++a_wins;
  }
  EXPECT_EQ(ab, 10000);
  EXPECT_NEAR(static_cast<double>(draws), 1000, 5 * 30);
  const double decided = static_cast<double>(ab - draws);
  EXPECT_NEAR(static_cast<double>(a_wins), 0.75 * decided, 5 * std::sqrt(decided * 0.75 * 0.25));
}

// [EU] §5: all pairs' games are shuffled into one sequence, so the first pair's games are
// not all at the front; the same seed gives the same sequence, another seed another.
TEST(PairwiseBernoulliTest, ShuffledAndDeterministic) {
  PairwiseBernoulliOptions options{.pairs = {{"A", "B", 0.6}, {"B", "C", 0.6}}, .games = 100};
  auto one = GeneratePairwiseBernoulli(options);
  ASSERT_THAT(one, IsOk());
  int64_t ab_in_front = 0;
  for (size_t i = 0; i < 100; ++i) ab_in_front += one->games[i].first == 0 ? 1 : 0;
  EXPECT_GT(ab_in_front, 20);
  EXPECT_LT(ab_in_front, 80);
  auto again = GeneratePairwiseBernoulli(options);
  options.seed = 1;
  auto other = GeneratePairwiseBernoulli(options);
  ASSERT_THAT(again, IsOk());
  ASSERT_THAT(other, IsOk());
  auto same = [](const PairwiseBernoulli& x, const PairwiseBernoulli& y) {
    for (size_t i = 0; i < x.games.size(); ++i) {
      if (x.games[i].first != y.games[i].first || x.games[i].outcome != y.games[i].outcome) {
        return false;
      }
    }
    return true;
  };
  EXPECT_TRUE(same(*one, *again));
  EXPECT_FALSE(same(*one, *other));
}

TEST(PairwiseBernoulliTest, RejectsBadOptions) {
  EXPECT_THAT(GeneratePairwiseBernoulli({}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no pair")));
  EXPECT_THAT(GeneratePairwiseBernoulli({.pairs = {{"A", "B", 0.5}}, .games = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("games: 0")));
  EXPECT_THAT(GeneratePairwiseBernoulli({.pairs = {{"A", "B", 0.5}}, .tie = 1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tie: 1")));
}

}  // namespace
}  // namespace ratings
