#include "ratings/ranked_order.h"

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/ranking.h"

namespace ratings {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

TEST(RankedOrderTest, HandWorkedMovesReportWhoWasPassed) {
  AgentIndex index;
  RankedOrder order(&index);
  std::vector<std::pair<AgentId, uint32_t>> displaced;
  for (const char* name : {"a", "b", "c"}) index.Intern(name);
  order.Set(0, 10, &displaced);  // a:10
  order.Set(1, 20, &displaced);  // b:20 passes a (a was rank 1)
  EXPECT_THAT(displaced, ElementsAre(Pair(0, 1)));
  displaced.clear();
  order.Set(2, 10, &displaced);  // c:10 ties a; "a" < "c" so c goes last, passing nobody
  EXPECT_TRUE(displaced.empty());
  EXPECT_EQ(order.Rank(1), 1u);
  EXPECT_EQ(order.Rank(0), 2u);
  EXPECT_EQ(order.Rank(2), 3u);
  order.Set(2, 30, &displaced);  // c jumps to the top, passing a (rank 2) and b (rank 1)
  EXPECT_THAT(displaced, UnorderedElementsAre(Pair(0, 2), Pair(1, 1)));
  displaced.clear();
  order.Set(2, 0, &displaced);  // and back to the bottom: b was 2, a was 3
  EXPECT_THAT(displaced, UnorderedElementsAre(Pair(1, 2), Pair(0, 3)));
  EXPECT_EQ(order.At(1), 1u);
  EXPECT_EQ(order.At(3), 2u);
}

// Independent check: after random moves the order equals a full sort (RankByRating), and
// the displaced list equals the brute-force difference of the rank vectors.
TEST(RankedOrderTest, RandomMovesMatchFullSortAndBruteForceDisplacement) {
  AgentIndex index;
  RankedOrder order(&index);
  std::vector<double> rating;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> value(0, 20);  // many ties
  for (int step = 0; step < 3000; ++step) {
    std::vector<uint32_t> before(rating.size());
    for (AgentId a = 0; a < rating.size(); ++a) before[a] = order.Rank(a);
    AgentId id;
    if (rating.size() < 40 && step % 3 == 0) {
      id = index.Intern(absl::StrCat("agent", 97 - rating.size()));
      rating.push_back(value(rng));
    } else {
      id = static_cast<AgentId>(rng() % rating.size());
      rating[id] = value(rng);
    }
    std::vector<std::pair<AgentId, uint32_t>> displaced;
    order.Set(id, rating[id], &displaced);
    const std::vector<RankedAgent> sorted = RankByRating(rating, index);
    std::map<AgentId, uint32_t> expected;
    for (const RankedAgent& r : sorted) {
      ASSERT_EQ(order.Rank(r.id), r.rank) << "step " << step;
      ASSERT_EQ(order.At(r.rank), r.id);
      if (r.id != id && r.id < before.size() && before[r.id] != r.rank)
        expected[r.id] = before[r.id];
    }
    std::map<AgentId, uint32_t> got(displaced.begin(), displaced.end());
    ASSERT_EQ(got.size(), displaced.size()) << "an agent reported twice";
    ASSERT_EQ(got, expected) << "step " << step;
  }
  RankedOrder rebuilt(&index);
  rebuilt.Reset(rating);
  for (AgentId a = 0; a < rating.size(); ++a) EXPECT_EQ(rebuilt.Rank(a), order.Rank(a));
}

}  // namespace
}  // namespace ratings
