// Ties in the online models (elo, sco, ml; docs/MODELS.md §9). Properties on random streams:
// two exchangeable agents (always in the same results, tied with each other, at random
// places in the standings) end bit-identical in every model and are ranked by name; renaming
// the agents moves every rating with its agent and re-sorts only ties. (Counting every result
// twice is no invariant here: an online model sees the games twice and moves twice as far.)
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/pool.h"
#include "ratings/ranking.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;

// A random stream over `others` plus x and y: results of 2..5 agents of random weights;
// whenever x plays, y plays too with the same rank, both at random places in the standings.
std::vector<Result> ExchangeableStream(const std::vector<std::string>& others, const std::string& x,
                                       const std::string& y, std::mt19937& rng) {
  std::vector<Result> stream;
  for (int r = 0; r < 300; ++r) {
    std::vector<std::string> pick = others;
    std::shuffle(pick.begin(), pick.end(), rng);
    const bool pair = rng() % 2 == 0;
    pick.resize(pair ? 1 + rng() % 3 : 2 + rng() % 3);
    Result result;
    result.weight = std::vector<double>{0.7, 1.0, 1.3, 2.5}[rng() % 4];
    for (const std::string& agent : pick) {
      result.standings.push_back({agent, static_cast<uint32_t>(1 + rng() % 3), std::nullopt});
    }
    if (pair) {
      const uint32_t rank = 1 + rng() % 3;
      for (const std::string& agent : {x, y}) {
        const size_t at = rng() % (result.standings.size() + 1);
        result.standings.insert(result.standings.begin() + static_cast<std::ptrdiff_t>(at),
                                {agent, rank, std::nullopt});
      }
    }
    if (result.standings.size() < 2) continue;
    stream.push_back(std::move(result));
  }
  return stream;
}

std::vector<std::string> Names(const std::vector<RankedAgent>& ranked, const AgentIndex& index) {
  std::vector<std::string> out;
  for (const RankedAgent& r : ranked) out.push_back(index.Name(r.id));
  return out;
}

// The three rankings of a pool: elo, sco, ml (ml with its solve, ties within the target).
std::vector<std::vector<std::string>> Rankings(Pool& pool) {
  MaximalLottery& ml = *pool.mutable_ml();
  EXPECT_THAT(ml.Solve(), IsOk());
  return {Names(RankByRating(pool.elo()->ratings(), pool.index()), pool.index()),
          Names(RankByRating(pool.sco()->ratings(), pool.index()), pool.index()),
          Names(RankByProbabilityThenRating(ml.Lottery(), ml.Ratings(), pool.index(),
                                            ml.options().target_exploitability),
                pool.index())};
}

TEST(OnlineTiesTest, ExchangeableAgentsAreBitIdenticalAndGoByName) {
  std::mt19937 rng(5);
  const std::vector<std::string> others = {"a", "b", "c", "d", "e"};
  for (int trial = 0; trial < 30; ++trial) {
    SCOPED_TRACE(trial);
    // Elo starting at 0: ratings near 0 keep the last bits of every move (at 1500 most are
    // rounded away, hiding a move computed differently for the two).
    absl::StatusOr<Pool> pool = Pool::Create({.elo_options = {.initial = 0.0}});
    ASSERT_THAT(pool, IsOk());
    for (const Result& r : ExchangeableStream(others, "q", "p", rng)) {
      ASSERT_THAT(pool->Apply(r), IsOk());
    }
    const AgentId* p = pool->index().Find("p");
    const AgentId* q = pool->index().Find("q");
    if (p == nullptr || q == nullptr) continue;
    EXPECT_EQ(pool->elo()->Rating(*p), pool->elo()->Rating(*q));
    EXPECT_EQ(pool->sco()->ratings()[*p], pool->sco()->ratings()[*q]);
    for (const std::vector<std::string>& order : Rankings(*pool)) {
      const auto at_p = std::find(order.begin(), order.end(), "p");
      const auto at_q = std::find(order.begin(), order.end(), "q");
      EXPECT_EQ(at_q - at_p, 1);
    }
    const std::vector<double> lottery = pool->ml()->Lottery();
    EXPECT_EQ(lottery[*p], lottery[*q]);
  }
}

// Renaming every agent (the same stream, names mapped by a random bijection): each rating
// follows its agent bit for bit, and the ranking is the old one re-sorted by the new names
// within ties.
TEST(OnlineTiesTest, RenamingMovesRatingsWithTheirAgents) {
  std::mt19937 rng(9);
  const std::vector<std::string> names = {"a", "b", "c", "d", "e", "p", "q"};
  for (int trial = 0; trial < 5; ++trial) {
    SCOPED_TRACE(trial);
    const std::vector<Result> stream = ExchangeableStream({"a", "b", "c", "d", "e"}, "p", "q", rng);
    std::vector<std::string> shuffled = names;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    const auto rename = [&](const std::string& n) {
      return shuffled[std::find(names.begin(), names.end(), n) - names.begin()];
    };
    absl::StatusOr<Pool> before = Pool::Create({}), after = Pool::Create({});
    ASSERT_THAT(before, IsOk());
    ASSERT_THAT(after, IsOk());
    for (const Result& r : stream) {
      Result renamed = r;
      for (Standing& s : renamed.standings) s.agent = rename(s.agent);
      ASSERT_THAT(before->Apply(r), IsOk());
      ASSERT_THAT(after->Apply(renamed), IsOk());
    }
    // Ids follow first appearance, which renaming keeps: agent i is agent i in both.
    ASSERT_EQ(before->index().size(), after->index().size());
    EXPECT_EQ(before->elo()->ratings(), after->elo()->ratings());
    EXPECT_EQ(before->sco()->ratings(), after->sco()->ratings());
    const std::vector<std::vector<std::string>> old_rankings = Rankings(*before);
    const std::vector<std::vector<std::string>> new_rankings = Rankings(*after);
    EXPECT_EQ(before->ml()->Lottery(), after->ml()->Lottery());
    // Expected: the old ratings under the new names, ranked by the same rule.
    AgentIndex renamed_index;
    for (AgentId a = 0; a < before->index().size(); ++a) {
      renamed_index.Intern(rename(before->index().Name(a)));
    }
    EXPECT_EQ(new_rankings[0],
              Names(RankByRating(before->elo()->ratings(), renamed_index), renamed_index));
    EXPECT_EQ(new_rankings[1],
              Names(RankByRating(before->sco()->ratings(), renamed_index), renamed_index));
  }
}

}  // namespace
}  // namespace ratings
