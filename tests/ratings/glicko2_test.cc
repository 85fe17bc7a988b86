#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

constexpr double kScale = 173.7178;

// Glickman's worked example ([G2] "Example of the Glicko-2 system", τ = 0.5): a player at
// 1500 / RD 200 / σ 0.06 beats 1400/30 and loses to 1550/100 and 1700/300 in one period.
// The paper's results: r' = 1464.06 (1464.05 without its rounded intermediate values),
// RD' = 151.52, σ' = 0.05999, the first five decimals of 0.0599960 (step 5's root by
// bisection, in Python, from the paper's formulas: 0.05999598).
TEST(Glicko2Test, WorkedExampleOfThePaper) {
  const Glicko2Player player = {.mu = 0.0, .phi = 200 / kScale, .sigma = 0.06};
  const std::vector<Glicko2Game> games = {{.mu = -100 / kScale, .phi = 30 / kScale, .score = 1.0},
                                          {.mu = 50 / kScale, .phi = 100 / kScale, .score = 0.0},
                                          {.mu = 200 / kScale, .phi = 300 / kScale, .score = 0.0}};
  const Glicko2Player after = Glicko2Period(player, games, 0.5);
  EXPECT_NEAR(kScale * after.mu + 1500, 1464.05, 0.005);
  EXPECT_NEAR(kScale * after.phi, 151.52, 0.005);
  EXPECT_NEAR(after.sigma, 0.0599960, 5e-8);
  // The paper's intermediate values of step 3: g(φ_j).
  EXPECT_NEAR(Glicko2G(30 / kScale), 0.9955, 5e-5);
  EXPECT_NEAR(Glicko2G(100 / kScale), 0.9531, 5e-5);
  EXPECT_NEAR(Glicko2G(300 / kScale), 0.7242, 5e-5);
}

// The same period as one four-agent result of the model: ranks 1700 and 1550 first (tied),
// the player second, 1400 last; no event times, so nothing grows.
TEST(Glicko2Test, AResultIsOnePeriodForEachOfItsAgents) {
  Glicko2 g = *Glicko2::Create({});
  Glicko2State state;
  state.mu = {0.0, -100 / kScale, 50 / kScale, 200 / kScale};
  state.phi = {200 / kScale, 30 / kScale, 100 / kScale, 300 / kScale};
  state.sigma = {0.06, 0.06, 0.06, 0.06};
  state.last.assign(4, absl::InfinitePast());
  ASSERT_TRUE(g.Restore(state).ok());
  const std::vector<AgentId> agents = {3, 2, 0, 1};
  const std::vector<uint32_t> ranks = {1, 1, 2, 3};
  g.Update({agents, ranks, 1.0}, std::nullopt);
  EXPECT_NEAR(g.Rating(0), 1464.05, 0.005);
  EXPECT_NEAR(g.Deviation(0), 151.52, 0.005);
  EXPECT_NEAR(g.Volatility(0), 0.0599960, 5e-8);
  EXPECT_FALSE(g.LastPlayed(0).has_value());
  EXPECT_FALSE(g.latest().has_value());
}

// φ ← min(√(φ² + σ²·t/period), rd): by hand. Reading reports the deviation grown to the
// latest event time of the pool, not to a clock.
TEST(Glicko2Test, DeviationGrowsWithEventTimeUpToTheInitialOne) {
  Glicko2 g = *Glicko2::Create({.period = absl::Hours(24)});
  Glicko2State state;
  state.mu = {0.0, 0.0, 0.0};
  state.phi = {0.5, 0.5, 0.5};
  state.sigma = {0.1, 0.1, 0.1};
  const absl::Time t0 = absl::FromUnixSeconds(1'000'000);
  state.last = {t0, t0, t0};
  state.latest = t0;
  ASSERT_TRUE(g.Restore(state).ok());
  EXPECT_DOUBLE_EQ(g.Deviation(0), 0.5 * kScale);
  // Agents 1 and 2 play two days later: agent 0's reading grows by two periods.
  const std::vector<AgentId> agents = {1, 2};
  const std::vector<uint32_t> ranks = {1, 2};
  g.Update({agents, ranks, 1.0}, t0 + absl::Hours(48));
  EXPECT_DOUBLE_EQ(g.Deviation(0), std::sqrt(0.25 + 0.01 * 2) * kScale);
  EXPECT_EQ(g.LastPlayed(1), t0 + absl::Hours(48));
  EXPECT_EQ(g.LastPlayed(0), t0);
  // After 100 years the growth stops at the initial deviation, 350.
  g.Update({agents, ranks, 1.0}, t0 + absl::Hours(24 * 365 * 100));
  EXPECT_DOUBLE_EQ(g.Deviation(0), 350.0);
  // A result without a time takes the latest: nothing grows for its agents, and the
  // latest stays.
  const absl::Time latest = *g.latest();
  const double phi1 = g.state().phi[1];
  g.Update({agents, ranks, 1.0}, std::nullopt);
  EXPECT_EQ(g.latest(), latest);
  EXPECT_EQ(g.LastPlayed(1), latest);
  // Its period started from the ungrown φ: the deviation it leaves is below the one before.
  EXPECT_LT(g.state().phi[1], phi1);
}

TEST(Glicko2Test, AnOlderResultGrowsNothingAndKeepsTheLaterTime) {
  Glicko2 g = *Glicko2::Create({});
  g.Resize(2);
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 2};
  const absl::Time t = absl::FromUnixSeconds(2'000'000);
  g.Update({agents, ranks, 1.0}, t);
  const Glicko2State before = g.state();
  Glicko2 copy = g;
  g.Update({agents, ranks, 1.0}, t - absl::Hours(240));
  // The same as a result at the agents' own last time: no growth.
  copy.Update({agents, ranks, 1.0}, t);
  EXPECT_EQ(g.state().phi, copy.state().phi);
  EXPECT_EQ(g.state().mu, copy.state().mu);
  EXPECT_EQ(g.LastPlayed(0), t);
  EXPECT_EQ(g.latest(), t);
  EXPECT_NE(g.state().mu, before.mu);
}

TEST(Glicko2Test, PeriodZeroTurnsGrowthOff) {
  Glicko2 g = *Glicko2::Create({.period = absl::ZeroDuration()});
  g.Resize(3);
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 2};
  g.Update({agents, ranks, 1.0}, absl::FromUnixSeconds(0));
  const double rd = g.Deviation(0);
  const std::vector<AgentId> others = {1, 2};
  g.Update({others, ranks, 1.0}, absl::FromUnixSeconds(1'000'000'000));
  EXPECT_EQ(g.Deviation(0), rd);
}

// Glickman's expected score between two rated players, by hand: μ 0.5 and 0, φ 0.3 and 0.4
// give g(0.5) = 1/√(1 + 0.75/π²) and E = 1/(1 + e^(−0.5·g)).
TEST(Glicko2Test, ExpectedScoreCombinesBothDeviations) {
  Glicko2 g = *Glicko2::Create({.period = absl::ZeroDuration()});
  Glicko2State state;
  state.mu = {0.5, 0.0};
  state.phi = {0.3, 0.4};
  state.sigma = {0.06, 0.06};
  state.last.assign(2, absl::InfinitePast());
  ASSERT_TRUE(g.Restore(state).ok());
  const double gg = 1.0 / std::sqrt(1.0 + 0.75 / (std::numbers::pi * std::numbers::pi));
  EXPECT_NEAR(g.Expected(0, 1, std::nullopt), 1.0 / (1.0 + std::exp(-0.5 * gg)), 1e-15);
  EXPECT_NEAR(g.Expected(0, 1, std::nullopt) + g.Expected(1, 0, std::nullopt), 1.0, 1e-15);
}

// A gap so large that the winner's E is exactly 1 in floating point (μ 0 against -60:
// exp(-60·g) with g ≈ 0.97 is below half an ulp of 1): no information for it, so it stays
// as it was; the loser's E is tiny but not 0, and its update stays finite.
TEST(Glicko2Test, ACertainOutcomeLeavesTheWinnerAsItWas) {
  Glicko2 g = *Glicko2::Create({});
  Glicko2State state;
  state.mu = {0.0, -60.0};
  state.phi = {0.3, 0.3};
  state.sigma = {0.06, 0.06};
  state.last.assign(2, absl::InfinitePast());
  ASSERT_TRUE(g.Restore(state).ok());
  const std::vector<AgentId> agents = {0, 1};
  const std::vector<uint32_t> ranks = {1, 2};
  g.Update({agents, ranks, 1.0}, std::nullopt);
  EXPECT_EQ(g.state().mu[0], 0.0);
  EXPECT_EQ(g.state().phi[0], 0.3);
  EXPECT_EQ(g.state().sigma[0], 0.06);
  for (const double x : {g.state().mu[1], g.state().phi[1], g.state().sigma[1]}) {
    EXPECT_TRUE(std::isfinite(x)) << x;
  }
}

// [G2] step 5's f, as the paper writes it, with a = ln σ².
double PaperF(double x, double a, double phi, double v, double delta, double tau) {
  const double ex = std::exp(x);
  return ex * (delta * delta - phi * phi - v - ex) /
             (2 * (phi * phi + v + ex) * (phi * phi + v + ex)) -
         (x - a) / (tau * tau);
}

// Step 5 as the paper writes it: the Illinois iteration on x, f with its two divisions, A
// starting at ln σ² and B at ln(Δ² − φ² − v) or ln σ² − kτ, σ' = e^(A/2). Glicko2Period
// rearranges the same iteration (docs/MODELS.md §10); here both of B's starts are reached.
// Rounding can move the step at which |B − A| first falls under ε, so σ' agrees within the
// iteration's tolerance (both ends within ε of the root in x = ln σ'²: 1e-6 relative in σ')
// always, and to rounding (1e-10) in nearly every case.
double PaperVolatility(double phi, double sigma, double v, double delta, double tau, bool* walked) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) { return PaperF(x, a, phi, v, delta, tau); };
  double big_a = a, big_b;
  *walked = !(delta * delta > phi * phi + v);
  if (!*walked) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    big_b = a - k * tau;
  }
  double fa = f(big_a), fb = f(big_b);
  while (std::abs(big_b - big_a) > 1e-6) {
    const double c = big_a + (big_a - big_b) * fa / (fb - fa);
    const double fc = f(c);
    if (fc * fb <= 0) {
      big_a = big_b;
      fa = fb;
    } else {
      fa = fa / 2;
    }
    big_b = c;
    fb = fc;
  }
  return std::exp(big_a / 2);
}

TEST(Glicko2Test, StepFiveIsThePapersIllinoisIteration) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mu(-2.5, 2.5), phi(0.05, 2.0), sigma(0.02, 0.2);
  int walked_count = 0, logged_count = 0, same_count = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Glicko2Player player = {.mu = mu(rng), .phi = phi(rng), .sigma = sigma(rng)};
    std::vector<Glicko2Game> games;
    for (int j = 0; j < 1 + trial % 4; ++j) {
      games.push_back({.mu = mu(rng), .phi = phi(rng), .score = 0.5 * (rng() % 3)});
    }
    const double tau = trial % 2 == 0 ? 0.5 : 0.3 + 0.9 * (trial % 7) / 7.0;
    // Steps 3 and 4 from the paper's formulas.
    double information = 0, improvement = 0;
    for (const Glicko2Game& game : games) {
      const double g =
          1 / std::sqrt(1 + 3 * game.phi * game.phi / (std::numbers::pi * std::numbers::pi));
      const double e = 1 / (1 + std::exp(-g * (player.mu - game.mu)));
      information += g * g * e * (1 - e);
      improvement += g * (game.score - e);
    }
    const double v = 1 / information;
    bool walked = false;
    const double expected =
        PaperVolatility(player.phi, player.sigma, v, v * improvement, tau, &walked);
    (walked ? walked_count : logged_count) += 1;
    const Glicko2Player after = Glicko2Period(player, games, tau);
    EXPECT_NEAR(after.sigma, expected, 1e-6 * expected) << "trial " << trial;
    if (std::abs(after.sigma - expected) <= 1e-10 * expected) ++same_count;
    // Steps 6 and 7 from the paper's formulas, on the model's σ'.
    const double phi_star2 = player.phi * player.phi + after.sigma * after.sigma;
    const double phi_new = 1 / std::sqrt(1 / phi_star2 + 1 / v);
    EXPECT_NEAR(after.phi, phi_new, 1e-12 * phi_new) << "trial " << trial;
    EXPECT_NEAR(after.mu, player.mu + phi_new * phi_new * improvement, 1e-12) << "trial " << trial;
  }
  EXPECT_GT(walked_count, 100);
  EXPECT_GT(logged_count, 100);
  EXPECT_GE(same_count, 1980);
}

// Glicko2::Update interleaves its agents' step-5 searches; each agent's arithmetic is that of
// Glicko2Period on its own games, bit for bit.
TEST(Glicko2Test, InterleavedSearchesEqualOnePeriodPerAgent) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mu(-2, 2), phi(0.05, 2.0), sigma(0.03, 0.1);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t k = 2 + trial % 5;
    Glicko2State state;
    for (size_t i = 0; i < k; ++i) {
      state.mu.push_back(mu(rng));
      state.phi.push_back(phi(rng));
      state.sigma.push_back(sigma(rng));
    }
    state.last.assign(k, absl::InfinitePast());
    Glicko2 g = *Glicko2::Create({});
    ASSERT_TRUE(g.Restore(state).ok());
    std::vector<AgentId> agents(k);
    std::vector<uint32_t> ranks(k);
    for (size_t i = 0; i < k; ++i) {
      agents[i] = static_cast<AgentId>(i);
      ranks[i] = static_cast<uint32_t>(1 + rng() % k);
    }
    g.Update({agents, ranks, 1.0}, std::nullopt);
    for (size_t i = 0; i < k; ++i) {
      std::vector<Glicko2Game> games;
      for (size_t j = 0; j < k; ++j) {
        if (j == i) continue;
        games.push_back({.mu = state.mu[j],
                         .phi = state.phi[j],
                         .score = ranks[i] < ranks[j]    ? 1.0
                                  : ranks[i] == ranks[j] ? 0.5
                                                         : 0.0});
      }
      const Glicko2Player after = Glicko2Period(
          {.mu = state.mu[i], .phi = state.phi[i], .sigma = state.sigma[i]}, games, 0.5);
      EXPECT_EQ(g.state().mu[i], after.mu) << "trial " << trial << " agent " << i;
      EXPECT_EQ(g.state().phi[i], after.phi) << "trial " << trial << " agent " << i;
      EXPECT_EQ(g.state().sigma[i], after.sigma) << "trial " << trial << " agent " << i;
    }
  }
}

TEST(Glicko2Test, BadOptionsAreNamed) {
  EXPECT_THAT(Glicko2::Create({.rd = -1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rd must be")));
  EXPECT_THAT(Glicko2::Create({.volatility = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("volatility")));
  EXPECT_THAT(Glicko2::Create({.tau = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tau must be")));
  EXPECT_THAT(Glicko2::Create({.initial = NAN}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("initial")));
  EXPECT_THAT(Glicko2::Create({.period = -absl::Hours(1)}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("period must be")));
  Glicko2 g = *Glicko2::Create({});
  EXPECT_THAT(g.Restore({.mu = {0.0}, .phi = {}, .sigma = {}, .last = {}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sizes differ")));
}

// --- An independent implementation of the rule of docs/MODELS.md §10 ---
//
// Written from Glickman's steps in rating points and seconds, one player at a time, with
// step 5 solved by bisection to 1e-13 instead of the Illinois iteration (so σ' agrees to
// about the iteration's ε); compared with the model on random streams of 2-4 agent results
// with ties, weights, missing and out-of-order event times.
struct Reference {
  struct Player {
    double r = 1500, rd = 350, sigma = 0.06;
    std::optional<int64_t> last;  // seconds
  };
  std::vector<Player> players;
  std::optional<int64_t> latest;
  double tau = 0.5, period = 86400, cap = 350;

  double Grown(const Player& p, std::optional<int64_t> t) const {
    if (!p.last || !t || *t <= *p.last) return p.rd;
    const double phi = p.rd / kScale;
    const double grown = std::sqrt(phi * phi + p.sigma * p.sigma * (*t - *p.last) / period);
    return std::min(grown * kScale, cap);
  }
  static double Volatility(double phi, double sigma, double v, double delta, double tau) {
    const double a = std::log(sigma * sigma);
    const auto f = [&](double x) { return PaperF(x, a, phi, v, delta, tau); };
    // f decreases through its one root: bracket it, then halve.
    double lo = a - 1, hi = a + 1;
    while (f(lo) < 0) lo -= 1;
    while (f(hi) > 0) hi += 1;
    while (hi - lo > 1e-13) {
      const double mid = (lo + hi) / 2;
      (f(mid) > 0 ? lo : hi) = mid;
    }
    return std::exp((lo + hi) / 4);
  }
  void Play(const std::vector<int>& who, const std::vector<int>& place, double weight,
            std::optional<int64_t> t) {
    if (t) latest = latest ? std::max(*latest, *t) : *t;
    const std::optional<int64_t> at = t ? t : latest;
    std::vector<Player> before;
    for (int i : who) {
      before.push_back(players[i]);
      before.back().rd = Grown(players[i], at);
    }
    for (size_t i = 0; i < who.size(); ++i) {
      const double mu = (before[i].r - 1500) / kScale, phi = before[i].rd / kScale;
      double v_inv = 0, sum = 0;
      for (size_t j = 0; j < who.size(); ++j) {
        if (j == i) continue;
        const double mu_j = (before[j].r - 1500) / kScale, phi_j = before[j].rd / kScale;
        const double g =
            1 / std::sqrt(1 + 3 * phi_j * phi_j / (std::numbers::pi * std::numbers::pi));
        const double e = 1 / (1 + std::exp(-g * (mu - mu_j)));
        const double s = place[i] < place[j] ? 1 : place[i] == place[j] ? 0.5 : 0;
        v_inv += weight * g * g * e * (1 - e);
        sum += weight * g * (s - e);
      }
      const double v = 1 / v_inv;
      const double sigma = Volatility(phi, before[i].sigma, v, v * sum, tau);
      const double phi_new = 1 / std::sqrt(1 / (phi * phi + sigma * sigma) + 1 / v);
      Player& p = players[who[i]];
      p.r = kScale * (mu + phi_new * phi_new * sum) + 1500;
      p.rd = phi_new * kScale;
      p.sigma = sigma;
      if (at) p.last = p.last ? std::max(*p.last, *at) : *at;
    }
  }
};

TEST(Glicko2Test, StreamsMatchAnIndependentImplementation) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    constexpr int kAgents = 12;
    Glicko2 g = *Glicko2::Create({});
    g.Resize(kAgents);
    Reference ref;
    ref.players.resize(kAgents);
    int64_t clock = 1'700'000'000;
    for (int n = 0; n < 400; ++n) {
      std::vector<int> who(kAgents);
      for (int i = 0; i < kAgents; ++i) who[i] = i;
      std::shuffle(who.begin(), who.end(), rng);
      who.resize(2 + rng() % 3);
      std::vector<int> place(who.size());
      for (int& p : place) p = 1 + static_cast<int>(rng() % who.size());
      const double weight = rng() % 4 == 0 ? 0.5 + (rng() % 8) / 4.0 : 1.0;
      std::optional<int64_t> t;
      const uint32_t kind = rng() % 10;
      if (kind < 7) {
        clock += rng() % (3 * 86400);
        t = clock;
      } else if (kind < 9) {
        t = clock - static_cast<int64_t>(rng() % (5 * 86400));  // older than some
      }                                                         // else: no event time
      ref.Play(who, place, weight, t);
      const std::vector<AgentId> agents(who.begin(), who.end());
      const std::vector<uint32_t> ranks(place.begin(), place.end());
      g.Update({agents, ranks, weight},
               t ? std::optional(absl::FromUnixSeconds(*t)) : std::nullopt);
    }
    for (int i = 0; i < kAgents; ++i) {
      // Reported deviation: grown to the latest event time.
      const double rd = ref.Grown(ref.players[i], ref.latest);
      EXPECT_NEAR(g.Rating(i), ref.players[i].r, 1e-3) << "seed " << seed << " agent " << i;
      EXPECT_NEAR(g.Deviation(i), rd, 1e-3) << "seed " << seed << " agent " << i;
      EXPECT_NEAR(g.Volatility(i), ref.players[i].sigma, 1e-6) << "seed " << seed;
      const std::optional<absl::Time> last = g.LastPlayed(i);
      ASSERT_EQ(last.has_value(), ref.players[i].last.has_value());
      if (last) {
        EXPECT_EQ(*last, absl::FromUnixSeconds(*ref.players[i].last));
      }
    }
  }
}

}  // namespace
}  // namespace ratings
