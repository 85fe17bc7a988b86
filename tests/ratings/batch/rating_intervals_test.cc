// Rating and rank intervals (docs/MODELS.md §5.5). Expected values: closed forms for two
// agents (the variance of a binomial log-odds), hand-counted rank intervals, the known
// spread of a bootstrapped mean, and coverage of known true strengths on synthetic
// Bradley–Terry data.
#include "ratings/batch/rating_intervals.h"

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/seeded_draws.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

constexpr double kEloPerNat = 400.0 / std::numbers::ln10;

// By hand: A [10, 20], B [15, 25], C [0, 5]. A: nobody's low end is above 20, C's high end
// is below 10 -> ranks 1..2. B: likewise 1..2. C: A's and B's low ends are above 5 -> 3..3.
TEST(RatingIntervalsTest, RankIntervalsByHand) {
  const std::vector<RankInterval> ranks = RankIntervals({{10, 20}, {15, 25}, {0, 5}});
  ASSERT_EQ(ranks.size(), 3u);
  EXPECT_EQ(ranks[0].best, 1u);
  EXPECT_EQ(ranks[0].worst, 2u);
  EXPECT_EQ(ranks[1].best, 1u);
  EXPECT_EQ(ranks[1].worst, 2u);
  EXPECT_EQ(ranks[2].best, 3u);
  EXPECT_EQ(ranks[2].worst, 3u);
  // Touching ends do not separate: [0, 1] and [1, 2] may be in either order.
  const std::vector<RankInterval> touching = RankIntervals({{0, 1}, {1, 2}});
  EXPECT_EQ(touching[0].best, 1u);
  EXPECT_EQ(touching[0].worst, 2u);
}

// Two agents, prior 0, A wins w of N: the MLE has p = w/N and the ratings sit at
// ±(s/2) logit(p) around the anchor (s = 400 / ln 10). H = J = N p (1-p) [[1,-1],[-1,1]],
// so the sandwich is H's pseudo-inverse, whose diagonal is 1 / (4 N p (1-p)): the familiar
// variance of a log-odds, 1 / (N p (1-p)), shared by the two halves.
TEST(RatingIntervalsTest, SandwichOfTwoAgentsIsTheLogOddsVariance) {
  const double w = 30, l = 10, n = w + l, p = w / n;
  const double gap = kEloPerNat * std::log(p / (1 - p)) / 2;
  const std::vector<double> ratings = {1500 + gap, 1500 - gap};
  auto intervals = SandwichIntervals({{.a = 0, .b = 1, .a_wins = w, .b_wins = l, .ties = 0}},
                                     ratings, {.prior = 0});
  ASSERT_THAT(intervals, IsOk());
  const double half = kZ95 * kEloPerNat / (2 * std::sqrt(n * p * (1 - p)));
  EXPECT_NEAR((*intervals)[0].low, ratings[0] - half, 1e-9);
  EXPECT_NEAR((*intervals)[0].high, ratings[0] + half, 1e-9);
  EXPECT_NEAR((*intervals)[1].low, ratings[1] - half, 1e-9);
  EXPECT_NEAR(half, 62.16, 0.01);  // 1.96 * 173.72 / (2 sqrt(7.5))
}

// Only ties: every comparison scores 1/2 - 1/2 = 0, so resampling cannot move the ratings
// and the interval has no width.
TEST(RatingIntervalsTest, SandwichOfTiesOnlyHasNoWidth) {
  auto intervals = SandwichIntervals({{.a = 0, .b = 1, .a_wins = 0, .b_wins = 0, .ties = 20}},
                                     {1500, 1500}, {.prior = 0});
  ASSERT_THAT(intervals, IsOk());
  EXPECT_NEAR((*intervals)[0].high - (*intervals)[0].low, 0, 1e-9);
}

TEST(RatingIntervalsTest, SandwichErrors) {
  // Agent 2 meets nobody: with prior 0 its rating is not identified.
  EXPECT_THAT(SandwichIntervals({{.a = 0, .b = 1, .a_wins = 3, .b_wins = 2, .ties = 0}},
                                {1500, 1500, 1500}, {.prior = 0})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("singular")));
  EXPECT_THAT(SandwichIntervals({}, std::vector<double>(kMaxSandwichAgents + 1, 0.0), {}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("use ci=bootstrap")));
  EXPECT_THAT(
      SandwichIntervals({{.a = 1, .b = 0, .a_wins = 1, .b_wins = 1, .ties = 0}}, {1500, 1500}, {})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a < b")));
}

// The bootstrap of a mean: 400 values, half 0 and half 1, have mean 1/2 and the mean of a
// resample has sd sqrt(1/4 / 400) = 0.025, so the 95% interval is about 0.5 ± 0.049.
// 1,000 rounds put each end within ±0.01 of that.
TEST(RatingIntervalsTest, BootstrapOfAMeanHasTheKnownSpread) {
  const size_t n = 400;
  const WeightedFit mean = [&](absl::Span<const uint32_t> weights) {
    double sum = 0;
    for (size_t v = 0; v < n; ++v) sum += weights[v] * (v % 2 == 0 ? 1.0 : 0.0);
    return absl::StatusOr<std::vector<double>>(std::vector<double>{sum / n});
  };
  auto intervals = BootstrapIntervals(n, mean, 1000, 7);
  ASSERT_THAT(intervals, IsOk());
  EXPECT_NEAR((*intervals)[0].low, 0.5 - kZ95 * 0.025, 0.01);
  EXPECT_NEAR((*intervals)[0].high, 0.5 + kZ95 * 0.025, 0.01);
  auto again = BootstrapIntervals(n, mean, 1000, 7);
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ((*again)[0].low, (*intervals)[0].low);  // deterministic for a seed
  EXPECT_THAT(BootstrapIntervals(n, mean, 1, 7).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rounds must be >= 2")));
}

// Coverage: 60 agents with true strengths N(0, 1) in log-odds units, 30,000 comparisons of
// uniformly drawn pairs decided by Bradley–Terry, fitted with prior 0 (ratings relative to
// their mean, as the truth is taken). Over 4 seeds, each estimator's 95% intervals must
// contain the true rating for 90-98% of the 240 agent intervals.
TEST(RatingIntervalsTest, IntervalsCoverKnownStrengths) {
  constexpr size_t kAgents = 60;
  constexpr size_t kComparisons = 30000;
  double covered_sandwich = 0, covered_bootstrap = 0, total = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<double> truth(kAgents);
    double mean = 0;
    for (double& t : truth) mean += (t = StandardNormal(rng)) / kAgents;
    struct Comparison {
      AgentId a, b;
      bool a_won;
    };
    std::vector<Comparison> comparisons;
    for (size_t c = 0; c < kComparisons; ++c) {
      auto a = static_cast<AgentId>(UniformIndex(rng, kAgents));
      auto b = static_cast<AgentId>(UniformIndex(rng, kAgents - 1));
      if (b >= a) ++b;
      const double p = 1 / (1 + std::exp(truth[b] - truth[a]));
      comparisons.push_back({std::min(a, b), std::max(a, b), (Uniform01(rng) < p) == (a < b)});
    }
    // The weighted tally of the comparisons, as PairOutcomes and as the fit's PairCounts.
    auto tally = [&](absl::Span<const uint32_t> weights) {
      std::vector<PairOutcomes> pairs;
      std::vector<std::vector<size_t>> index(kAgents, std::vector<size_t>(kAgents, SIZE_MAX));
      for (size_t c = 0; c < comparisons.size(); ++c) {
        const Comparison& x = comparisons[c];
        if (index[x.a][x.b] == SIZE_MAX) {
          index[x.a][x.b] = pairs.size();
          pairs.push_back({.a = x.a, .b = x.b, .a_wins = 0, .b_wins = 0, .ties = 0});
        }
        (x.a_won ? pairs[index[x.a][x.b]].a_wins : pairs[index[x.a][x.b]].b_wins) += weights[c];
      }
      std::sort(pairs.begin(), pairs.end(), [](const PairOutcomes& x, const PairOutcomes& y) {
        return std::pair(x.a, x.b) < std::pair(y.a, y.b);
      });
      return pairs;
    };
    auto fit = [&](const std::vector<PairOutcomes>& pairs) {
      std::vector<PairCount> counts;
      for (const PairOutcomes& p : pairs) counts.push_back({p.a, p.b, p.a_wins, p.b_wins});
      return FitBradleyTerry(kAgents, counts, {.prior = 0, .tolerance = 1e-6});
    };
    const std::vector<uint32_t> ones(kComparisons, 1);
    const std::vector<PairOutcomes> pairs = tally(ones);
    auto full = fit(pairs);
    ASSERT_THAT(full, IsOk());
    auto sandwich = SandwichIntervals(pairs, full->ratings, {.prior = 0});
    ASSERT_THAT(sandwich, IsOk());
    auto bootstrap = BootstrapIntervals(
        kComparisons,
        [&](absl::Span<const uint32_t> weights) -> absl::StatusOr<std::vector<double>> {
          auto refit = fit(tally(weights));
          if (!refit.ok()) return refit.status();
          return refit->ratings;
        },
        100, seed);
    ASSERT_THAT(bootstrap, IsOk());
    for (size_t i = 0; i < kAgents; ++i) {
      const double true_rating = 1500 + kEloPerNat * (truth[i] - mean);
      covered_sandwich += (*sandwich)[i].low <= true_rating && true_rating <= (*sandwich)[i].high;
      covered_bootstrap +=
          (*bootstrap)[i].low <= true_rating && true_rating <= (*bootstrap)[i].high;
      total += 1;
    }
  }
  EXPECT_GE(covered_sandwich / total, 0.90);
  EXPECT_LE(covered_sandwich / total, 0.98);
  EXPECT_GE(covered_bootstrap / total, 0.90);
  EXPECT_LE(covered_bootstrap / total, 0.98);
  RecordProperty("sandwich_coverage", std::to_string(covered_sandwich / total));
  RecordProperty("bootstrap_coverage", std::to_string(covered_bootstrap / total));
}

}  // namespace
}  // namespace ratings
