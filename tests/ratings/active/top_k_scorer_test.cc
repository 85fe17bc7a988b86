#include "ratings/active/top_k_scorer.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "ratings/measures/top_k_error.h"

namespace ratings::active {
namespace {

// The same four-agent case as the hand-worked GeneralizedErrorByHand of
// top_k_error_test.cc: ranking 1 0 3 2 against truth 0 1 2 3 gives 1, 1/3, 1/3, 1/3.
TEST(TopKScorerTest, HandWorkedCase) {
  const std::vector<AgentId> truth = {0, 1, 2, 3};
  const std::vector<AgentId> ranking = {1, 0, 3, 2};
  const double expected[] = {1.0, 1.0 / 3, 1.0 / 3, 1.0 / 3};
  for (size_t k = 1; k <= 4; ++k) {
    TopKScorer scorer(truth, 4, k);
    EXPECT_DOUBLE_EQ(scorer.Gre(ranking), expected[k - 1]) << "k = " << k;
  }
}

// Independent check against ratings/measures' GeneralizedTopKError (itself tested by hand)
// on random rankings, with the ranking restricted to the truth's agents when the truth
// covers a subset (clones are skipped, [AE] App. C.1).
TEST(TopKScorerTest, AgreesWithGeneralizedTopKErrorOnRandomRankings) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t agents = 2 + rng() % 12;
    const size_t ranked = 2 + rng() % (agents - 1);  // truth over agents [0, ranked)
    std::vector<AgentId> ranking(agents);
    std::iota(ranking.begin(), ranking.end(), 0u);
    std::shuffle(ranking.begin(), ranking.end(), rng);
    std::vector<AgentId> truth(ranked);
    std::iota(truth.begin(), truth.end(), 0u);
    std::shuffle(truth.begin(), truth.end(), rng);
    std::vector<AgentId> restricted;
    for (AgentId a : ranking) {
      if (a < ranked) restricted.push_back(a);
    }
    for (size_t k = 1; k <= ranked; ++k) {
      TopKScorer scorer(truth, agents, k);
      EXPECT_NEAR(scorer.Gre(ranking), *GeneralizedTopKError(restricted, truth, k), 1e-12)
          << "trial " << trial << ", k " << k;
    }
  }
}

}  // namespace
}  // namespace ratings::active
