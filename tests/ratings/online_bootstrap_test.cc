#include "ratings/online_bootstrap.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "Eigen/Core"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

// A random stream of 2..4-agent results among n agents, some ties, weights 1 or 2.
struct Played {
  std::vector<AgentId> agents;
  std::vector<uint32_t> ranks;
  double weight = 1.0;
  IndexedResult Indexed() const { return {agents, ranks, weight}; }
};

std::vector<Played> RandomStream(size_t n, size_t results, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Played> out;
  for (size_t t = 0; t < results; ++t) {
    Played p;
    const size_t k = 2 + rng() % 3;
    while (p.agents.size() < k) {
      const auto a = static_cast<AgentId>(rng() % n);
      if (std::find(p.agents.begin(), p.agents.end(), a) == p.agents.end()) p.agents.push_back(a);
    }
    for (size_t i = 0; i < k; ++i) p.ranks.push_back(static_cast<uint32_t>(1 + rng() % k));
    p.weight = rng() % 4 == 0 ? 2.0 : 1.0;
    out.push_back(std::move(p));
  }
  return out;
}

TEST(PoissonOneTest, ThresholdsAreTheRoundedPoissonCdf) {
  // Independent computation in long double: T_k = ceil(P(X <= k) 2^32); a draw below T_0
  // is 0, one in [T_(k-1), T_k) is k.
  long double cdf = 0;
  long double term = std::exp(-1.0L);
  uint64_t previous = 0;
  for (uint32_t k = 0; k <= 11; ++k) {
    cdf += term;
    term /= static_cast<long double>(k + 1);
    const auto threshold = static_cast<uint64_t>(std::ceil(cdf * 4294967296.0L));
    EXPECT_EQ(PoissonOne(static_cast<uint32_t>(threshold - 1)), k) << "k=" << k;
    if (threshold <= std::numeric_limits<uint32_t>::max()) {
      EXPECT_EQ(PoissonOne(static_cast<uint32_t>(threshold)), k + 1) << "k=" << k;
    }
    EXPECT_GT(threshold, previous);
    previous = threshold;
  }
  EXPECT_EQ(PoissonOne(0), 0u);
  EXPECT_EQ(PoissonOne(std::numeric_limits<uint32_t>::max()), 12u);
}

TEST(DrawCountsTest, MomentsAndZeroFrequencyOfPoissonOne) {
  // 400,000 draws: mean 1, variance 1, P(0) = e^-1, each within 5 standard errors.
  std::vector<uint32_t> counts(16);
  double sum = 0, sum_sq = 0, zeros = 0;
  const double draws = 25'000.0 * 16;
  for (uint64_t index = 0; index < 25'000; ++index) {
    DrawCounts(42, index, absl::MakeSpan(counts));
    for (const uint32_t c : counts) {
      sum += c;
      sum_sq += static_cast<double>(c) * c;
      zeros += c == 0 ? 1 : 0;
    }
  }
  const double mean = sum / draws;
  const double variance = sum_sq / draws - mean * mean;
  EXPECT_NEAR(mean, 1.0, 5 * std::sqrt(1.0 / draws));
  EXPECT_NEAR(variance, 1.0, 5 * std::sqrt(3.0 / draws));  // Var(X^2)-ish bound, 4th moment 4
  const double p0 = std::exp(-1.0);
  EXPECT_NEAR(zeros / draws, p0, 5 * std::sqrt(p0 * (1 - p0) / draws));
}

TEST(DrawCountsTest, AFunctionOfSeedAndIndexOnly) {
  std::vector<uint32_t> a(7), b(7), c(7), d(16);
  DrawCounts(NameSeed("chess"), 12, absl::MakeSpan(a));
  DrawCounts(NameSeed("go"), 13, absl::MakeSpan(c));  // something else in between
  DrawCounts(NameSeed("chess"), 12, absl::MakeSpan(b));
  EXPECT_EQ(a, b);
  DrawCounts(NameSeed("chess"), 12, absl::MakeSpan(d));  // more replicas: same first seven
  EXPECT_TRUE(std::equal(a.begin(), a.end(), d.begin()));
  EXPECT_NE(NameSeed("chess"), NameSeed("chesss"));
  EXPECT_EQ(NameSeed(""), 0xCBF29CE484222325u);   // FNV-1a's offset basis
  EXPECT_EQ(NameSeed("a"), 0xAF63DC4C8601EC8Cu);  // FNV-1a 64 of "a", the published vector
}

// The grid rule of docs/MODELS.md §5.6, written out here: n * step with n the nearest
// integer (ties to even) to x / step, kept inside [min, max].
double OnGrid(double x, double step, double min, double max) {
  double snapped = std::nearbyint(x / step) * step;
  while (snapped > max) snapped -= step;
  while (snapped < min) snapped += step;
  return snapped;
}

// A reference model snapped to the grid after each update, as the replicas are.
template <typename Model>
void SnapAll(Model& model, double step, double min, double max) {
  std::vector<double> ratings(model.ratings().begin(), model.ratings().end());
  for (double& r : ratings) r = OnGrid(r, step, min, max);
  ASSERT_THAT(model.Restore(std::move(ratings)), IsOk());
}

// Independent reference: one Elo and one Sco per replica, each given result t with weight
// w_t * count_r(t) by the models' own Update (skipped when the count is 0), then snapped to
// the grid (Elo K/1024, SCO min(alpha/tau, max - min)/1024). Feeds `stream` to both and
// expects every replica within the tolerances of its reference model.
void ExpectReplicasAreTheModelsFedTheirWeights(OnlineBootstrap& boot, std::vector<Elo>& elo,
                                               std::vector<Sco>& sco, uint64_t seed,
                                               const std::vector<Played>& stream,
                                               double elo_tolerance, double sco_tolerance) {
  const EloOptions& eo = elo[0].options();
  const ScoOptions& so = sco[0].options();
  const double elo_step = eo.k / 1024,
               sco_step = std::min(so.alpha / so.tau, so.max - so.min) / 1024;
  std::vector<uint32_t> counts(boot.replicas());
  double elo_worst = 0, sco_worst = 0;
  for (uint64_t t = 0; t < stream.size(); ++t) {
    boot.Update(stream[t].Indexed(), t);
    DrawCounts(seed, t, absl::MakeSpan(counts));
    for (size_t r = 0; r < counts.size(); ++r) {
      if (counts[r] == 0) continue;
      IndexedResult weighted = stream[t].Indexed();
      weighted.weight *= counts[r];
      elo[r].Update(weighted);
      sco[r].Update(weighted);
      SnapAll(elo[r], elo_step, -INFINITY, INFINITY);
      SnapAll(sco[r], sco_step, so.min, so.max);
    }
  }
  for (AgentId a = 0; a < boot.size(); ++a) {
    for (size_t r = 0; r < counts.size(); ++r) {
      EXPECT_NEAR(boot.EloReplicas(a)[r], elo[r].Rating(a), elo_tolerance) << a << "/" << r;
      EXPECT_NEAR(boot.ScoReplicas(a)[r], sco[r].Rating(a), sco_tolerance) << a << "/" << r;
      elo_worst = std::max(elo_worst, std::abs(boot.EloReplicas(a)[r] - elo[r].Rating(a)));
      sco_worst = std::max(sco_worst, std::abs(boot.ScoReplicas(a)[r] - sco[r].Rating(a)));
      // On the grid: a whole number of steps.
      EXPECT_EQ(boot.EloReplicas(a)[r],
                std::nearbyint(boot.EloReplicas(a)[r] / elo_step) * elo_step);
    }
  }
  std::printf("worst difference: elo %.3g (step %.3g), sco %.3g (step %.3g)\n", elo_worst, elo_step,
              sco_worst, sco_step);
}

TEST(OnlineBootstrapTest, EachReplicaIsTheModelFedItsPoissonWeights) {
  // 21 replicas: a block of 16 and a block of 8 (5 in use), the two widths of the update.
  constexpr uint32_t kReplicas = 21;
  const EloOptions elo_options{.k = 24, .initial = 1000};
  const ScoOptions sco_options{.alpha = 0.5, .tau = 1.5, .min = 0, .max = 10};
  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = kReplicas, .seed = 7}, elo_options, sco_options);
  std::vector<Elo> elo(kReplicas, *Elo::Create(elo_options));
  std::vector<Sco> sco(kReplicas, *Sco::Create(sco_options));
  constexpr size_t kAgents = 12;
  boot.Resize(kAgents);
  for (size_t r = 0; r < kReplicas; ++r) {
    elo[r].Resize(kAgents);
    sco[r].Resize(kAgents);
  }
  // 2- to 4-agent results: the pairwise logistics (k = 2) and the per-agent exponentials
  // (k >= 3). The replicas evaluate the logistic in single precision (relative error
  // ~1e-7 per term), so now and then a value lands on the other side of a half step from
  // the double-precision reference and snaps one step away; over 2,000 results that left at
  // most 1 Elo step (24/1024) and 4 SCO steps (1/3072) between the two here. A wrong weight
  // or pairing moves ratings by whole K-sized steps (1,024 Elo steps).
  ExpectReplicasAreTheModelsFedTheirWeights(boot, elo, sco, 7, RandomStream(kAgents, 2'000, 3),
                                            2 * 24.0 / 1024, 8 * (1.0 / 3) / 1024);
}

TEST(OnlineBootstrapTest, ResultsSpreadWiderThanTheClampStillFollowTheModels) {
  // Ratings so far apart within a result (30,000 Elo, 200 SCO units at tau = 1) that
  // exponentials relative to the result's best would leave the float range: such blocks
  // take the pairwise path, which clamps |x| <= 80 (a logistic of 1.8e-35 for anything
  // further), so the models' moves still come out. Checked against the models as above,
  // snapped alike; with steps up to K w c_r = 32 · 2 · 5 here, no value snapped differently
  // (before the grid, single precision left up to 5.5e-5 Elo).
  constexpr uint32_t kReplicas = 4;
  const EloOptions elo_options{.k = 32};
  const ScoOptions sco_options{.alpha = 0.5, .tau = 1, .min = 0, .max = 300};
  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = kReplicas, .seed = 5}, elo_options, sco_options);
  const std::vector<double> elo_start = {0, 15'000, 30'000, 30'010, 29'990};
  const std::vector<double> sco_start = {0, 100, 200, 201, 199};
  boot.Resize(elo_start.size());
  std::vector<double> elo_replicas, sco_replicas;
  for (size_t a = 0; a < elo_start.size(); ++a) {
    elo_replicas.insert(elo_replicas.end(), kReplicas, elo_start[a]);
    sco_replicas.insert(sco_replicas.end(), kReplicas, sco_start[a]);
  }
  ASSERT_THAT(boot.Restore({.replicas = kReplicas, .elo = elo_replicas, .sco = sco_replicas}),
              IsOk());
  std::vector<Elo> elo(kReplicas, *Elo::Create(elo_options));
  std::vector<Sco> sco(kReplicas, *Sco::Create(sco_options));
  for (size_t r = 0; r < kReplicas; ++r) {
    ASSERT_THAT(elo[r].Restore(elo_start), IsOk());
    ASSERT_THAT(sco[r].Restore(sco_start), IsOk());
  }
  ExpectReplicasAreTheModelsFedTheirWeights(boot, elo, sco, 5,
                                            RandomStream(elo_start.size(), 300, 9), 1e-4, 2e-5);
}

TEST(OnlineBootstrapTest, SameStreamSameBitsAndRestoreContinuesExactly) {
  const auto make = [] {
    return *OnlineBootstrap::Create({.replicas = 16, .seed = NameSeed("p")}, EloOptions{},
                                    ScoOptions{});
  };
  const std::vector<Played> stream = RandomStream(30, 3'000, 11);
  OnlineBootstrap whole = make();
  OnlineBootstrap first_half = make();
  for (uint64_t t = 0; t < stream.size(); ++t) {
    whole.Resize(30);
    whole.Update(stream[t].Indexed(), t);
    if (t < 1'500) {
      first_half.Resize(30);
      first_half.Update(stream[t].Indexed(), t);
    }
  }
  OnlineBootstrap restored = make();
  restored.Resize(30);
  ASSERT_THAT(restored.Restore(first_half.ExportState()), IsOk());
  for (uint64_t t = 1'500; t < stream.size(); ++t) restored.Update(stream[t].Indexed(), t);
  const OnlineBootstrapState a = whole.ExportState();
  const OnlineBootstrapState b = restored.ExportState();
  EXPECT_EQ(a.replicas, 16u);
  EXPECT_EQ(a.elo.size(), 30u * 16);
  EXPECT_EQ(a.elo, b.elo);  // bit-identical
  EXPECT_EQ(a.sco, b.sco);
}

TEST(OnlineBootstrapTest, IntervalIsPointPlusMinusZTimesReplicaSd) {
  // Hand calculation: replicas 1490, 1500, 1510, 1520: mean 1505, s^2 = (225+25+25+225)/3.
  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = 4}, EloOptions{}, ScoOptions{.min = 0, .max = 100});
  boot.Resize(2);
  ASSERT_THAT(boot.Restore({.replicas = 4,
                            .elo = {1490, 1500, 1510, 1520, 1400, 1400, 1400, 1400},
                            .sco = {96, 98, 100, 100, 50, 50, 50, 50}}),
              IsOk());
  const double s = std::sqrt(500.0 / 3.0);
  const std::vector<RatingInterval> elo = boot.EloIntervals(std::vector<double>{1500, 1400});
  EXPECT_DOUBLE_EQ(elo[0].low, 1500 - kZ95 * s);
  EXPECT_DOUBLE_EQ(elo[0].high, 1500 + kZ95 * s);
  EXPECT_EQ(elo[1].low, 1400);  // no spread: the interval is the point
  EXPECT_EQ(elo[1].high, 1400);
  // SCO: mean 98.5, s^2 = (6.25 + 0.25 + 2.25 + 2.25)/3 = 11/3; cut at max = 100.
  const std::vector<RatingInterval> sco = boot.ScoIntervals(std::vector<double>{99, 50});
  EXPECT_DOUBLE_EQ(sco[0].low, 99 - kZ95 * std::sqrt(11.0 / 3.0));
  EXPECT_EQ(sco[0].high, 100);
}

TEST(OnlineBootstrapTest, SpreadMatchesTheSamplingSpreadOfOnlineElo) {
  // Monte Carlo: 8 agents of known Bradley–Terry strength, 200 independent streams of 4,000
  // games each, online Elo (K = 16). The standard deviation of an agent's final rating over
  // the streams is the sampling spread the intervals estimate; within each stream, the
  // replicas' spread should match it, and point ± 1.96 s should hold the agent's mean
  // rating over the streams about 95% of the time.
  constexpr size_t kAgents = 8, kStreams = 200, kGames = 4'000;
  const std::vector<double> strength = {-300, -200, -100, -50, 0, 50, 150, 300};
  std::vector<std::vector<double>> final_rating(kStreams), width(kStreams);
  std::vector<std::vector<RatingInterval>> intervals(kStreams);
  for (size_t s = 0; s < kStreams; ++s) {
    std::mt19937_64 rng(1'000 + s);
    Elo elo = *Elo::Create({.k = 16});
    OnlineBootstrap boot =
        *OnlineBootstrap::Create({.replicas = 16, .seed = s}, EloOptions{.k = 16}, std::nullopt);
    elo.Resize(kAgents);
    boot.Resize(kAgents);
    for (uint64_t t = 0; t < kGames; ++t) {
      const auto a = static_cast<AgentId>(rng() % kAgents);
      auto b = static_cast<AgentId>(rng() % (kAgents - 1));
      if (b >= a) ++b;
      const double p = Elo::Expected(strength[a], strength[b]);
      const bool a_wins = static_cast<double>(rng() >> 11) * 0x1.0p-53 < p;
      const std::vector<AgentId> agents = {a, b};
      const std::vector<uint32_t> ranks = {a_wins ? 1u : 2u, a_wins ? 2u : 1u};
      const IndexedResult result{agents, ranks, 1.0};
      elo.Update(result);
      boot.Update(result, t);
    }
    final_rating[s].assign(elo.ratings().begin(), elo.ratings().end());
    intervals[s] = boot.EloIntervals(elo.ratings());
  }
  double ratio_sum = 0, covered = 0;
  for (size_t a = 0; a < kAgents; ++a) {
    double mean = 0, sq = 0, half_width = 0;
    for (size_t s = 0; s < kStreams; ++s) mean += final_rating[s][a] / kStreams;
    for (size_t s = 0; s < kStreams; ++s) {
      sq += (final_rating[s][a] - mean) * (final_rating[s][a] - mean);
      half_width += (intervals[s][a].high - intervals[s][a].low) / 2 / kStreams;
      covered += intervals[s][a].low <= mean && mean <= intervals[s][a].high ? 1 : 0;
    }
    const double sampling_sd = std::sqrt(sq / (kStreams - 1));
    const double replica_sd = half_width / kZ95;
    ratio_sum += replica_sd / sampling_sd;
  }
  const double ratio = ratio_sum / kAgents;
  const double coverage = covered / (kAgents * kStreams);
  EXPECT_GT(ratio, 0.75);
  EXPECT_LT(ratio, 1.33);
  EXPECT_GT(coverage, 0.85);
  EXPECT_LT(coverage, 0.99);
  RecordProperty("sd_ratio", std::to_string(ratio));
  RecordProperty("coverage", std::to_string(coverage));
  std::printf("replica sd / sampling sd = %.3f, coverage = %.3f\n", ratio, coverage);
}

TEST(ReplicaGridTest, RoundHalfEvenIsEigensRintAndNearbyint) {
  // Bit for bit against Eigen's rint() on an array (the vectorised update's rounding) and
  // against the C library's nearbyint (to nearest, ties to even): ties, signed zeros, the
  // 2^52 boundary, infinities and random values. -0.0 is the one difference from nearbyint.
  std::vector<double> xs = {
      0.5,    1.5,          2.5,           -0.5,  -1.5,   -2.5,     0.0,       -0.3,
      0x1p52, 0x1p52 - 0.5, -0x1p52 + 0.5, 1e300, -1e300, INFINITY, -INFINITY, 4503599627370495.5};
  std::mt19937_64 rng(1);
  std::normal_distribution<double> spread(0, 1e6);
  for (int i = 0; i < 10'000; ++i) xs.push_back(spread(rng));
  // -0.0 first and an even count: every value goes through Eigen's packets of two (an odd
  // last one would take its scalar fallback, std::rint, which keeps the -0.0).
  xs.insert(xs.begin(), -0.0);
  xs.push_back(1.0);
  ASSERT_EQ(xs.size() % 2, 0u);
  const Eigen::ArrayXd eigen =
      Eigen::Map<const Eigen::ArrayXd>(xs.data(), static_cast<Eigen::Index>(xs.size())).rint();
  for (size_t i = 0; i < xs.size(); ++i) {
    const double got = RoundHalfEven(xs[i]);
    EXPECT_EQ(std::signbit(got), std::signbit(eigen[static_cast<Eigen::Index>(i)])) << xs[i];
    EXPECT_EQ(got, eigen[static_cast<Eigen::Index>(i)]) << xs[i];
    if (i > 0) {
      EXPECT_EQ(std::signbit(got), std::signbit(std::nearbyint(xs[i]))) << xs[i];
      EXPECT_EQ(got, std::nearbyint(xs[i])) << xs[i];
    }
  }
  EXPECT_FALSE(std::signbit(RoundHalfEven(-0.0)));
  EXPECT_TRUE(std::isnan(RoundHalfEven(NAN)));
}

TEST(ReplicaGridTest, StepsAndEndsByHand) {
  // Elo: K/1024. SCO: min(alpha/tau, max - min)/1024, ends the grid values inside [min, max].
  EXPECT_EQ(EloReplicaGrid({.k = 32}).step, 1.0 / 32);
  EXPECT_EQ(EloReplicaGrid({.k = 0}).step, 1.0 / 1024);
  const ReplicaGrid sco = ScoReplicaGrid({.alpha = 0.5, .tau = 2, .min = -0.1, .max = 3.3});
  EXPECT_EQ(sco.step, 0.25 / 1024);
  EXPECT_EQ(sco.lowest, -409 * sco.step);    // -0.1 / step = -409.6
  EXPECT_EQ(sco.highest, 13516 * sco.step);  // 3.3 / step = 13516.8
  EXPECT_EQ(ScoReplicaGrid({.alpha = 10, .tau = 1, .min = 0, .max = 1}).step, 1.0 / 1024);
  // Nearest, ties to even, clamped to the ends.
  EXPECT_EQ(sco.Snap(2.5 * sco.step), 2 * sco.step);
  EXPECT_EQ(sco.Snap(3.5 * sco.step), 4 * sco.step);
  EXPECT_EQ(sco.Snap(-1.0), sco.lowest);
  EXPECT_EQ(sco.Snap(1e9), sco.highest);
}

TEST(OnlineBootstrapTest, StepsFormRoundTripsExactly) {
  // Replicas far from their points (thousands of steps) and near them; the steps form and
  // back gives the same doubles, and the steps are the hand-computed differences.
  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = 4, .seed = 3}, EloOptions{}, ScoOptions{});
  boot.Resize(3);
  ASSERT_THAT(boot.Restore({.replicas = 4,
                            .elo = {1500, 1500.03125, 1400, 9000, 0, -5, 2e6, 1e-3, 7, 7, 7, 7},
                            .sco = {0, 100, 50, 49.9, 1, 2, 3, 4, 10, 10, 10, 10.0001}}),
              IsOk());
  const std::vector<double> elo_point = {1500.01, -3, 7}, sco_point = {50, 2.5, 10};
  std::vector<int64_t> elo(12), sco(12);
  boot.EloSteps(elo_point, absl::MakeSpan(elo));
  boot.ScoSteps(sco_point, absl::MakeSpan(sco));
  EXPECT_EQ(elo[1], 1);  // 1500.03125 = 48001 steps of 1/32; 1500.01 rounds to 48000
  EXPECT_EQ(elo[3], (9000 - 1500) * 32);
  EXPECT_EQ(elo[6], (2'000'000 + 3) * 32);
  EXPECT_EQ(elo[7], 3 * 32);   // 1e-3 snapped to 0
  EXPECT_EQ(sco[1], 512'000);  // 100 - 50 in steps of 0.1/1024
  // From agent 1 on, in blocks: the same steps (the snapshot writer's chunks).
  std::vector<int64_t> agent1(4), agents12(8);
  boot.EloSteps(elo_point, absl::MakeSpan(agent1), 1);
  boot.ScoSteps(sco_point, absl::MakeSpan(agents12), 1);
  EXPECT_EQ(agent1, std::vector<int64_t>(elo.begin() + 4, elo.begin() + 8));
  EXPECT_EQ(agents12, std::vector<int64_t>(sco.begin() + 4, sco.end()));
  OnlineBootstrap restored =
      *OnlineBootstrap::Create({.replicas = 4, .seed = 3}, EloOptions{}, ScoOptions{});
  restored.Resize(3);
  ASSERT_THAT(restored.RestoreSteps(4, elo, sco, elo_point, sco_point), IsOk());
  EXPECT_EQ(restored.ExportState().elo, boot.ExportState().elo);  // bit-identical
  EXPECT_EQ(restored.ExportState().sco, boot.ExportState().sco);
  sco[11] = 1'000'000;  // 10 + ~97.7: past max
  EXPECT_THAT(
      restored.RestoreSteps(4, elo, sco, elo_point, sco_point),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sco: replica 3 of agent #2")));
  EXPECT_THAT(restored.RestoreSteps(4, elo, sco, elo_point, {}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("point ratings for 3")));
}

TEST(OnlineBootstrapTest, RefusesBadOptionsAndStates) {
  EXPECT_THAT(
      OnlineBootstrap::Create({.replicas = 1}, EloOptions{}, std::nullopt).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("replicas must be in 2..256")));
  EXPECT_THAT(OnlineBootstrap::Create({.replicas = 257}, EloOptions{}, std::nullopt).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("got 257")));
  EXPECT_THAT(OnlineBootstrap::Create({.replicas = 4}, std::nullopt, std::nullopt).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("neither elo nor sco")));
  EXPECT_THAT(OnlineBootstrap::Create({.replicas = 4}, EloOptions{.k = -1}, std::nullopt).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k must be")));

  OnlineBootstrap boot =
      *OnlineBootstrap::Create({.replicas = 2}, EloOptions{}, ScoOptions{.min = 0, .max = 1});
  boot.Resize(1);
  EXPECT_THAT(boot.Restore({.replicas = 3, .elo = {1, 2, 3}, .sco = {0, 0, 0}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("3 replicas, this run 2")));
  EXPECT_THAT(
      boot.Restore({.replicas = 2, .elo = {1}, .sco = {0, 0}}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("elo: 1 replica ratings for 2")));
  EXPECT_THAT(boot.Restore({.replicas = 2, .elo = {1, NAN}, .sco = {0, 0}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("replica 1 of agent #0")));
  EXPECT_THAT(
      boot.Restore({.replicas = 2, .elo = {INFINITY, 1}, .sco = {0, 0}}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("replica 0 of agent #0 is inf")));
  EXPECT_THAT(boot.Restore({.replicas = 2, .elo = {1, 1}, .sco = {0, 2}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sco: replica 1")));
  // A failed restore changes nothing.
  EXPECT_EQ(boot.EloReplicas(0)[1], 1500);
  ASSERT_THAT(boot.StartAtPoint(std::vector<double>{1234}, std::vector<double>{0.5}), IsOk());
  EXPECT_EQ(boot.EloReplicas(0)[0], 1234);
  EXPECT_EQ(boot.ScoReplicas(0)[1], 0.5);
}

}  // namespace
}  // namespace ratings
