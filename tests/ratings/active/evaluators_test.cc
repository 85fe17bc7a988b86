#include "ratings/active/evaluators.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/active/algorithms.h"
#include "ratings/active/evaluator.h"
#include "tests/testing/status_matchers.h"

namespace ratings::active {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::unique_ptr<Evaluator> Make(const std::string& name, size_t tasks, size_t agents,
                                AlgorithmOptions options = {}) {
  auto e = MakeEvaluator(name, tasks, agents, options, 1);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *std::move(e) : nullptr;
}

// Means by hand: a0 (10 + 30)/2 = 20, a1 50, a2 40, a3 never sampled (last).
TEST(EvaluatorsTest, UniformAveragingRanksByMeanScore) {
  auto e = Make("uniform-averaging", 2, 4);
  e->Observe({0, 0, 1, 10, 50});
  e->Observe({1, 0, 2, 30, 40});
  EXPECT_THAT(e->Ranking(), ElementsAre(1, 2, 0, 3));
}

// Unsampled agents first, then UCB = mean + C sqrt(log(2T)/T_a). With C = 10 after
// samples (a0 60, a1 40) and (a2 10, a1 90): T = 2, log 4 = 1.386; a0: 60 + 10·sqrt(1.386)
// = 71.8, a1 (count 2, mean 65): 65 + 10·sqrt(0.693) = 73.3, a2: 10 + 11.8 = 21.8,
// a3 unsampled: +inf. Choice: a3 then a1. Ranking by visit count: a1 (2), a0, a2 (1), a3.
TEST(EvaluatorsTest, BasicUcbPicksTheTopTwoUcbAndRanksByVisits) {
  AlgorithmOptions options;
  options.ucb_c = 10;
  auto e = Make("basic-ucb", 3, 4, options);
  e->Observe({0, 0, 1, 60, 40});
  e->Observe({0, 2, 1, 10, 90});
  std::mt19937_64 rng(0);
  const Query q = e->Choose(3, rng);
  EXPECT_EQ(q.a, 3u);
  EXPECT_EQ(q.b, 1u);
  EXPECT_LT(q.task, 3u);
  EXPECT_THAT(e->Ranking(), ElementsAre(1, 0, 2, 3));
}

// K = 1: one win moves the winner to 1500.5 and the loser to 1499.5; a draw between
// equals moves nothing.
TEST(EvaluatorsTest, OnlineEloUpdatesOncePerSample) {
  auto e = Make("online-elo", 1, 3);
  e->Observe({0, 2, 0, 70, 20});
  EXPECT_THAT(e->Ranking(), ElementsAre(2, 1, 0));
  e->Observe({0, 0, 1, 5, 5});  // 1499.5 vs 1500: a0 gains a little, still below a1
  EXPECT_THAT(e->Ranking(), ElementsAre(2, 1, 0));
}

// Copeland over the samples (burn-in does not change how samples are counted):
// a2 beats a0 twice, a0 beats a1, a1 beats a2 once -> a2 over a0 (margin 2), a0 over a1,
// a1 over a2: Copeland 1 each, ties by id -> 0 1 2. One more a2 > a1 makes a2 2 wins.
TEST(EvaluatorsTest, BatchCopelandRanksTheGrowingTally) {
  auto e = Make("batch-copeland", 1, 3);
  e->Observe({0, 2, 0, 9, 1});
  e->Observe({0, 2, 0, 9, 1});
  e->Observe({0, 0, 1, 9, 1});
  e->Observe({0, 1, 2, 9, 1});
  EXPECT_THAT(e->Ranking(), ElementsAre(0, 1, 2));
  e->Observe({0, 2, 1, 9, 1});
  e->Observe({0, 2, 1, 9, 1});
  EXPECT_THAT(e->Ranking(), ElementsAre(2, 0, 1));
}

// Mean model: task 0 means a0 80, a1 20, a2 50 -> a0 > a2 > a1; task 1: a1 70, a2 60,
// a0 10 -> a1 > a2 > a0; task 2: a2 90, a0 30 (a1 unsampled) -> a2 > a0. Margins:
// a0-a1 0, a0-a2 -1, a1-a2 0 -> Copeland a2 1.5, a0 0.5, a1 1 -> 2 1 0.
TEST(EvaluatorsTest, MeanModelCopelandVotesWithTheEstimatedTaskRankings) {
  auto e = Make("mean-model-copeland", 3, 3);
  e->Observe({0, 0, 1, 80, 20});
  e->Observe({0, 2, 0, 50, 80});  // a0's mean on task 0 stays 80
  e->Observe({1, 1, 2, 70, 60});
  e->Observe({1, 0, 2, 10, 60});
  e->Observe({2, 2, 0, 90, 30});
  EXPECT_THAT(e->Ranking(), ElementsAre(2, 1, 0));
}

// Burn-in first (n·m rounds cover every cell); afterwards the pairs come from the
// maximal lottery mixed with uniform. A tally where a0 beats everyone: the lottery is
// all on a0, σ' = (0.9 + 0.1/3, 0.1/3, 0.1/3), so a0 is in about
// 1 - P(neither) = 1 - 2·σ'(1)σ'(2)/(1 - σ'(1)) ≈ 0.9977 of the pairs.
TEST(EvaluatorsTest, BatchMaximalLotteriesDrawsFromTheMixedLottery) {
  auto e = Make("batch-maximal-lotteries", 1, 3);
  std::mt19937_64 rng(9);
  for (int64_t t = 1; t <= 3; ++t) {
    const Query q = e->Choose(t, rng);
    EXPECT_NE(q.a, q.b);
  }
  for (int i = 0; i < 10; ++i) {
    e->Observe({0, 0, 1, 9, 1});
    e->Observe({0, 0, 2, 9, 1});
  }
  EXPECT_EQ(e->Ranking().front(), 0u);
  int with_a0 = 0;
  for (int64_t t = 4; t < 4004; ++t) {
    const Query q = e->Choose(t, rng);
    with_a0 += (q.a == 0 || q.b == 0) ? 1 : 0;
  }
  EXPECT_GE(with_a0, 3970);  // expected 3991; 4 standard errors below is ~3979
}

// KemenyEl with 3 agents: C(3,2) = 3 pairs, δ_0 = 0.1; a pair is resolved once
// 1/2 > sqrt(ln(2·3/0.1) / (2n)), i.e. n > ln(60)/0.5 = 8.19. After 9 wins of a0 over a1
// that pair is never chosen again; before, it is.
TEST(EvaluatorsTest, KemenyElStopsSamplingAResolvedPair) {
  auto e = Make("kemeny-el", 1, 3);
  std::mt19937_64 rng(4);
  auto pair_01_chosen = [&] {
    for (int i = 0; i < 300; ++i) {
      const Query q = e->Choose(1, rng);
      if ((q.a == 0 && q.b == 1) || (q.a == 1 && q.b == 0)) return true;
    }
    return false;
  };
  for (int i = 0; i < 8; ++i) e->Observe({0, 0, 1, 9, 1});
  EXPECT_TRUE(pair_01_chosen());
  e->Observe({0, 1, 0, 1, 9});
  EXPECT_FALSE(pair_01_chosen());
  EXPECT_EQ(e->Ranking()[0], 0u);  // Kemeny of Q: a0 above a1
}

// The online bandits' matches are always two distinct agents.
TEST(EvaluatorsTest, OnlineBanditsChooseDistinctAgents) {
  for (const char* name : {"online-maximal-lotteries", "online-nash-averaging"}) {
    auto e = Make(name, 4, 3);
    std::mt19937_64 rng(8);
    for (int64_t t = 1; t <= 500; ++t) {
      const Query q = e->Choose(t, rng);
      ASSERT_NE(q.a, q.b) << name;
      ASSERT_LT(q.task, 4u) << name;
      e->Observe({q.task, q.a, q.b, 10.0 * q.a, 10.0 * q.b});  // a2 > a1 > a0 everywhere
    }
    EXPECT_EQ(e->Ranking().front(), 2u) << name;
  }
}

TEST(EvaluatorsTest, RankingsCoverEveryAgentBeforeAnySample) {
  for (const char* name :
       {"uniform-averaging", "basic-ucb", "online-elo", "online-sco", "batch-elo", "batch-copeland",
        "batch-ranked-pairs", "batch-maximal-lotteries", "batch-sco", "mean-model-copeland",
        "mean-model-ranked-pairs", "mean-model-max-lot", "kemeny-el", "proportional-representation",
        "online-maximal-lotteries", "online-nash-averaging", "batch-nash-averaging"}) {
    auto e = Make(name, 2, 5);
    EXPECT_THAT(e->Ranking(), ElementsAre(0, 1, 2, 3, 4)) << name;
  }
}

// The greedy cover by hand (docs/ACTIVE.md §3), g = 2. Tasks over a0..a2:
// v0 a0>a1>a2, v1 a2>a1>a0, v2 a2>a0>a1, v3 a0>a2>a1. Requirements floor(count/2):
// a0: top1 1, top2 1, top3 2; a1: 0, 1, 2; a2: 1, 1, 2. Every task covers 6 at first
// (v0 taken, lowest id); then v1 and v2 cover 5, v3 4 (v1 taken); nothing is left.
TEST(EvaluatorsTest, GreedyRepresentativeTasksByHand) {
  const std::vector<std::vector<uint32_t>> ranks = {{1, 2, 3}, {3, 2, 1}, {2, 3, 1}, {1, 3, 2}};
  EXPECT_THAT(GreedyRepresentativeTasks(ranks, 3, 2), ElementsAre(0, 1));
  // g = 1 needs every task's top r matched as often as all tasks do: all four tasks.
  EXPECT_THAT(GreedyRepresentativeTasks(ranks, 3, 1), ElementsAre(0, 1, 2, 3));
  // Two equal tasks and a third, g = 2: one of the pair covers everything (v0).
  EXPECT_THAT(GreedyRepresentativeTasks({{1, 2, 3}, {1, 2, 3}, {3, 2, 1}}, 3, 2), ElementsAre(0));
}

TEST(EvaluatorsTest, UnknownNamesAreErrorsListingTheKnownOnes) {
  EXPECT_THAT(MakeEvaluator("batch-kemeny", 2, 3, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown algorithm 'batch-kemeny'; known: uniform-averaging")));
  EXPECT_THAT(MakeEvaluator("online-elo", 2, 1, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at least 2 agents")));
  AlgorithmOptions bad;
  bad.elo_k = -1;
  EXPECT_THAT(MakeEvaluator("online-elo", 2, 3, bad, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings::active
