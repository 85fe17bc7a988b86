#include "ratings/batch/bradley_terry.h"

#include <cmath>
#include <functional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

BradleyTerryOptions Options(double prior, int64_t max_iterations = 10000, double tolerance = 1e-9) {
  return {.prior = prior, .tolerance = tolerance, .max_iterations = max_iterations};
}

// Closed form (Hunter 2004; Zermelo): two agents, A beat B w times and lost l times;
// without a prior the MLE has gamma_A / gamma_B = w / l, so the Elo difference is
// 400 log10(w / l), and the mean rating is the anchor.
TEST(BradleyTerryTest, TwoAgentsWithoutPriorMatchTheClosedForm) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 3, .n_ba = 1}};
  absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(2, pairs, Options(0));
  ASSERT_THAT(fit, IsOk()) << fit.status();
  EXPECT_TRUE(fit->converged);
  EXPECT_NEAR(fit->ratings[0] - fit->ratings[1], 400 * std::log10(3.0), 1e-6);  // 190.8485
  EXPECT_NEAR(fit->ratings[0] + fit->ratings[1], 3000.0, 1e-6);
}

// One MM iteration by hand (Hunter 2004 Eq. 3, from gamma = 1): pairs (0,1) 2:1, (1,2)
// 2:1, (0,2) 1:1. W = (3, 3, 2); sum_j N_ij/(gamma_i+gamma_j) = (2.5, 3, 2.5); gamma =
// (1.2, 1, 0.8). Without a prior the geometric mean is scaled to 1 (Python:
// 1500 + 400 log10(g / 0.96^(1/3)) = 1534.0363340137742, 1502.3638355947242,
// 1463.5998303915017).
TEST(BradleyTerryTest, OneMmIterationByHandWithoutPrior) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 2, .n_ba = 1},
                                        {.a = 0, .b = 2, .n_ab = 1, .n_ba = 1},
                                        {.a = 1, .b = 2, .n_ab = 2, .n_ba = 1}};
  absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(3, pairs, Options(0, 1));
  ASSERT_THAT(fit, IsOk()) << fit.status();
  EXPECT_EQ(fit->iterations, 1);
  EXPECT_FALSE(fit->converged);
  EXPECT_NEAR(fit->ratings[0], 1534.0363340137742, 1e-9);
  EXPECT_NEAR(fit->ratings[1], 1502.3638355947242, 1e-9);
  EXPECT_NEAR(fit->ratings[2], 1463.5998303915017, 1e-9);
}

// A warm start at the fixed point converges at once to the same ratings (the closed form
// above), and a start of the wrong size or not finite is refused.
TEST(BradleyTerryTest, WarmStartAtTheFixedPointConvergesAtOnce) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 3, .n_ba = 1}};
  BradleyTerryOptions o = Options(0);
  const double half = 200 * std::log10(3.0);
  o.start = {1500 + half, 1500 - half};
  absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(2, pairs, o);
  ASSERT_THAT(fit, IsOk()) << fit.status();
  EXPECT_TRUE(fit->converged);
  EXPECT_EQ(fit->iterations, 1);
  EXPECT_NEAR(fit->ratings[0] - fit->ratings[1], 400 * std::log10(3.0), 1e-6);
  o.start = {1500};
  EXPECT_THAT(FitBradleyTerry(2, pairs, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("1 starting ratings for 2")));
  o.start = {1500, std::nan("")};
  EXPECT_THAT(FitBradleyTerry(2, pairs, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("starting rating 1")));
}

// The same iteration with prior 2: each agent gets one virtual win and one virtual loss
// against gamma = 1, so W = (4, 4, 3) and the denominators gain 2/(1+1) = 1:
// gamma = (4/3.5, 1, 3/3.5); ratings 1500 + 400 log10(gamma) (Python: 1523.1967787910746,
// 1500, 1473.2212841477547). The reference stays at the anchor: no rescaling.
TEST(BradleyTerryTest, OneMmIterationByHandWithPrior) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 2, .n_ba = 1},
                                        {.a = 0, .b = 2, .n_ab = 1, .n_ba = 1},
                                        {.a = 1, .b = 2, .n_ab = 2, .n_ba = 1}};
  absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(3, pairs, Options(2, 1));
  ASSERT_THAT(fit, IsOk()) << fit.status();
  EXPECT_NEAR(fit->ratings[0], 1523.1967787910746, 1e-9);
  EXPECT_NEAR(fit->ratings[1], 1500.0, 1e-9);
  EXPECT_NEAR(fit->ratings[2], 1473.2212841477547, 1e-9);
}

// The log-posterior on the Elo scale, written independently of the MM code: pair terms
// n log P(win), P(i beats j) = 1/(1+10^((r_j-r_i)/400)), plus prior/2 virtual wins and
// losses against a reference at 1500.
double LogPosterior(const std::vector<double>& r, const std::vector<PairCount>& pairs,
                    double prior) {
  auto log_p = [](double ri, double rj) { return -std::log1p(std::pow(10, (rj - ri) / 400)); };
  double total = 0;
  for (const PairCount& p : pairs) {
    total += p.n_ab * log_p(r[p.a], r[p.b]) + p.n_ba * log_p(r[p.b], r[p.a]);
  }
  for (double ri : r) total += prior / 2 * (log_p(ri, 1500) + log_p(1500, ri));
  return total;
}

// The MAP with the prior, checked against a brute-force maximisation of the
// log-posterior (cyclic golden-section search on each rating; the posterior is concave).
TEST(BradleyTerryTest, PriorFitMaximisesTheLogPosterior) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 5, .n_ba = 0},
                                        {.a = 1, .b = 2, .n_ab = 2, .n_ba = 1}};
  absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(3, pairs, Options(2));
  ASSERT_THAT(fit, IsOk()) << fit.status();
  std::vector<double> r(3, 1500);
  for (int round = 0; round < 200; ++round) {
    for (size_t i = 0; i < r.size(); ++i) {
      double lo = 500, hi = 2500;
      for (int step = 0; step < 100; ++step) {
        const double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966;
        std::vector<double> x1 = r, x2 = r;
        x1[i] = m1;
        x2[i] = m2;
        if (LogPosterior(x1, pairs, 2) < LogPosterior(x2, pairs, 2)) {
          lo = m1;
        } else {
          hi = m2;
        }
      }
      r[i] = (lo + hi) / 2;
    }
  }
  for (size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(fit->ratings[i], r[i], 1e-3) << i;
}

// The prior is per agent, against a fixed reference: adding unrelated agents and games
// leaves a pair's ratings exactly as they were (no squashing as the pool grows, unlike a
// prior spread over all pairs or tied to the number of agents).
TEST(BradleyTerryTest, UnrelatedAgentsDoNotMoveAPairsRatings) {
  std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 3, .n_ba = 1}};
  absl::StatusOr<BradleyTerryFit> small = FitBradleyTerry(2, pairs, Options(2));
  for (AgentId a = 2; a < 1000; a += 2) pairs.push_back({.a = a, .b = a + 1, .n_ab = 4});
  absl::StatusOr<BradleyTerryFit> large = FitBradleyTerry(1000, pairs, Options(2));
  ASSERT_THAT(small, IsOk());
  ASSERT_THAT(large, IsOk());
  EXPECT_NEAR(small->ratings[0], large->ratings[0], 1e-6);
  EXPECT_NEAR(small->ratings[1], large->ratings[1], 1e-6);
  EXPECT_GT(small->ratings[0] - small->ratings[1], 100);  // not squashed to nothing
}

TEST(BradleyTerryTest, AgentWithoutGamesSitsAtTheAnchor) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 1, .n_ba = 0}};
  absl::StatusOr<BradleyTerryFit> fit =
      FitBradleyTerry(3, pairs, {.prior = 2, .anchor = 1000, .tolerance = 1e-9});
  ASSERT_THAT(fit, IsOk());
  EXPECT_NEAR(fit->ratings[2], 1000, 1e-6);
  EXPECT_GT(fit->ratings[0], 1000);
  EXPECT_LT(fit->ratings[1], 1000);
}

TEST(BradleyTerryTest, WithoutPriorNeedsStronglyConnectedComparisons) {
  // 0 beat 1, never lost: the MLE sends 0 to +infinity.
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 2, .n_ba = 0}};
  EXPECT_THAT(FitBradleyTerry(2, pairs, Options(0)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("strongly connected")));
  EXPECT_THAT(FitBradleyTerry(2, pairs, Options(2)), IsOk());
}

TEST(BradleyTerryTest, RejectsBadPairsAndOptions) {
  const std::vector<PairCount> reversed = {{.a = 1, .b = 0, .n_ab = 1}};
  EXPECT_THAT(FitBradleyTerry(2, reversed, Options(2)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pair 0")));
  const std::vector<PairCount> out_of_range = {{.a = 0, .b = 5, .n_ab = 1}};
  EXPECT_THAT(FitBradleyTerry(2, out_of_range, Options(2)), Not(IsOk()));
  const std::vector<PairCount> negative = {{.a = 0, .b = 1, .n_ab = -1}};
  EXPECT_THAT(FitBradleyTerry(2, negative, Options(2)), Not(IsOk()));
  EXPECT_THAT(FitBradleyTerry(2, {}, Options(-1)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("prior")));
  EXPECT_THAT(FitBradleyTerry(2, {}, {.tolerance = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tolerance")));
  EXPECT_THAT(FitBradleyTerry(2, {}, {.max_iterations = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_iterations")));
}

// A case where plain MM crawls (one agent with hundreds of games, one with almost none):
// SQUAREM reaches the same fixed point in far fewer steps.
TEST(BradleyTerryTest, AccelerationReachesThePlainFixedPointSooner) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 900, .n_ba = 300},
                                        {.a = 1, .b = 2, .n_ab = 800, .n_ba = 150},
                                        {.a = 2, .b = 3, .n_ab = 5, .n_ba = 0},
                                        {.a = 0, .b = 3, .n_ab = 400, .n_ba = 1}};
  BradleyTerryOptions plain = {.prior = 2, .tolerance = 1e-7, .max_iterations = 1000000};
  plain.accelerate = false;
  BradleyTerryOptions fast = plain;
  fast.accelerate = true;
  absl::StatusOr<BradleyTerryFit> slow_fit = FitBradleyTerry(4, pairs, plain);
  absl::StatusOr<BradleyTerryFit> fast_fit = FitBradleyTerry(4, pairs, fast);
  ASSERT_THAT(slow_fit, IsOk());
  ASSERT_THAT(fast_fit, IsOk());
  ASSERT_TRUE(slow_fit->converged && fast_fit->converged);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(fast_fit->ratings[i], slow_fit->ratings[i], 1e-3);
  EXPECT_LT(fast_fit->iterations * 5, slow_fit->iterations)
      << fast_fit->iterations << " vs " << slow_fit->iterations;
}

TEST(BradleyTerryTest, ReportsProgressUpToTheTotal) {
  const std::vector<PairCount> pairs = {{.a = 0, .b = 1, .n_ab = 3, .n_ba = 1}};
  int64_t last_done = -1, last_total = -1;
  ProgressFn progress = [&](int64_t done, int64_t total) {
    last_done = done;
    last_total = total;
  };
  ASSERT_THAT(FitBradleyTerry(2, pairs, Options(2, 50), progress), IsOk());
  EXPECT_EQ(last_done, 50);
  EXPECT_EQ(last_total, 50);
}

}  // namespace
}  // namespace ratings
