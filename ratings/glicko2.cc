#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "ratings/batch/rating_intervals.h"

namespace ratings {
namespace {

// [G2] step 5's convergence tolerance, and a bound on its iterations that only inputs
// the model never produces (NaN) could reach.
constexpr double kEpsilon = 1e-6;
constexpr int kMaxIterations = 1000;

// [G2] step 5: the new volatility, by the Illinois iteration on f.
double NewVolatility(double phi, double sigma, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const double phi2 = phi * phi;
  const double delta2 = delta * delta;
  const double inverse_tau2 = 1.0 / (tau * tau);
  // f at x, given e^x (known without an exp at A = a and at B = ln(Δ² − φ² − v)).
  const auto f_at = [&](double x, double ex) {
    const double d = phi2 + v + ex;
    return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) * inverse_tau2;
  };
  const auto f = [&](double x) { return f_at(x, std::exp(x)); };
  double big_a = a;
  double big_b;
  double fb;
  if (delta2 > phi2 + v) {
    big_b = std::log(delta2 - phi2 - v);
    fb = f_at(big_b, delta2 - phi2 - v);
  } else {
    int k = 1;
    while ((fb = f(a - k * tau)) < 0 && k < kMaxIterations) ++k;
    big_b = a - k * tau;  // fb = f(B) already
  }
  double fa = f_at(big_a, sigma * sigma);
  for (int i = 0; std::abs(big_b - big_a) > kEpsilon && i < kMaxIterations; ++i) {
    const double c = big_a + (big_a - big_b) * fa / (fb - fa);
    const double fc = f(c);
    if (fc * fb <= 0) {
      big_a = big_b;
      fa = fb;
    } else {
      fa /= 2.0;
    }
    big_b = c;
    fb = fc;
  }
  return std::exp(big_a / 2.0);
}

}  // namespace

double Glicko2G(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

Glicko2Player Glicko2Period(const Glicko2Player& player, absl::Span<const Glicko2Game> games,
                            double tau) {
  // Steps 3 and 4: v and the sum Δ/v, each game's terms times its weight.
  double information = 0.0;
  double improvement = 0.0;
  for (const Glicko2Game& game : games) {
    const double g = Glicko2G(game.phi);
    const double e = 1.0 / (1.0 + std::exp(-g * (player.mu - game.mu)));
    information += game.weight * g * g * e * (1.0 - e);
    improvement += game.weight * g * (game.score - e);
  }
  // Games whose outcome was certain in floating point (E exactly 0 or 1, a gap of
  // thousands of rating points) carry no information: v would be infinite. The player is
  // then left as it was.
  if (!(information > 0)) return player;
  const double v = 1.0 / information;
  const double delta = v * improvement;
  // Steps 5-7.
  const double sigma = NewVolatility(player.phi, player.sigma, v, delta, tau);
  const double phi_star2 = player.phi * player.phi + sigma * sigma;
  const double phi = 1.0 / std::sqrt(1.0 / phi_star2 + 1.0 / v);
  return {.mu = player.mu + phi * phi * improvement, .phi = phi, .sigma = sigma};
}

absl::StatusOr<Glicko2> Glicko2::Create(const Glicko2Options& options) {
  const auto bad = [](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("glicko2: ", what));
  };
  if (!std::isfinite(options.initial)) return bad("initial must be finite");
  if (!std::isfinite(options.rd) || options.rd < 0) {
    return bad(absl::StrCat("rd must be finite and >= 0, got ", options.rd));
  }
  if (!std::isfinite(options.volatility) || options.volatility <= 0) {
    return bad(absl::StrCat("volatility must be finite and > 0, got ", options.volatility));
  }
  if (!std::isfinite(options.tau) || options.tau <= 0) {
    return bad(absl::StrCat("tau must be finite and > 0, got ", options.tau));
  }
  if (options.period < absl::ZeroDuration() || options.period == absl::InfiniteDuration()) {
    return bad(absl::StrCat("period must be a finite duration >= 0, got ",
                            absl::FormatDuration(options.period)));
  }
  Glicko2 model(options);
  model.period_seconds_ = absl::ToDoubleSeconds(options.period);
  return model;
}

void Glicko2::Resize(size_t n) {
  if (n <= size()) return;
  state_.mu.resize(n, (options_.initial - 1500.0) / kGlicko2Scale);
  state_.phi.resize(n, options_.rd / kGlicko2Scale);
  state_.sigma.resize(n, options_.volatility);
  state_.last.resize(n, absl::InfinitePast());
}

double Glicko2::GrownPhi(AgentId id, absl::Time time) const {
  const double phi = state_.phi[id];
  const absl::Time last = state_.last[id];
  if (options_.period == absl::ZeroDuration() || last == absl::InfinitePast() || time <= last) {
    return phi;
  }
  const double periods = absl::ToDoubleSeconds(time - last) / period_seconds_;
  const double sigma = state_.sigma[id];
  return std::min(std::sqrt(phi * phi + sigma * sigma * periods), options_.rd / kGlicko2Scale);
}

void Glicko2::Update(const IndexedResult& result, std::optional<absl::Time> time) {
  if (time.has_value()) state_.latest = std::max(state_.latest, *time);
  const absl::Time at = time.value_or(state_.latest);
  const size_t k = result.size();
  // The pre-result state of every agent, its deviation grown to the event time.
  absl::InlinedVector<Glicko2Player, 8> before(k);
  for (size_t i = 0; i < k; ++i) {
    const AgentId id = result.agents[i];
    before[i] = {.mu = state_.mu[id], .phi = GrownPhi(id, at), .sigma = state_.sigma[id]};
  }
  // Each agent's period: the result's other agents, from the same pre-result state.
  absl::InlinedVector<Glicko2Game, 8> games(k - 1);
  for (size_t i = 0; i < k; ++i) {
    size_t n = 0;
    for (size_t j = 0; j < k; ++j) {
      if (j == i) continue;
      const double score = result.ranks[i] < result.ranks[j]    ? 1.0
                           : result.ranks[i] == result.ranks[j] ? 0.5
                                                                : 0.0;
      games[n++] = {
          .mu = before[j].mu, .phi = before[j].phi, .score = score, .weight = result.weight};
    }
    const Glicko2Player after = Glicko2Period(before[i], games, options_.tau);
    const AgentId id = result.agents[i];
    state_.mu[id] = after.mu;
    state_.phi[id] = after.phi;
    state_.sigma[id] = after.sigma;
    state_.last[id] = std::max(state_.last[id], at);
  }
}

double Glicko2::Rating(AgentId id) const { return kGlicko2Scale * state_.mu[id] + 1500.0; }

double Glicko2::Deviation(AgentId id) const { return kGlicko2Scale * GrownPhi(id, state_.latest); }

std::vector<double> Glicko2::Ratings() const {
  std::vector<double> rating(size());
  for (AgentId a = 0; a < size(); ++a) rating[a] = Rating(a);
  return rating;
}

RatingInterval Glicko2::Interval(AgentId id) const {
  const double rating = Rating(id);
  const double half = kGlicko2IntervalZ * Deviation(id);
  return {.low = rating - half, .high = rating + half};
}

std::optional<absl::Time> Glicko2::LastPlayed(AgentId id) const {
  if (state_.last[id] == absl::InfinitePast()) return std::nullopt;
  return state_.last[id];
}

std::optional<absl::Time> Glicko2::latest() const {
  if (state_.latest == absl::InfinitePast()) return std::nullopt;
  return state_.latest;
}

double Glicko2::Expected(AgentId i, AgentId j, std::optional<absl::Time> time) const {
  const absl::Time at = time.value_or(state_.latest);
  const double phi_i = GrownPhi(i, at);
  const double phi_j = GrownPhi(j, at);
  const double g = Glicko2G(std::sqrt(phi_i * phi_i + phi_j * phi_j));
  return 1.0 / (1.0 + std::exp(-g * (state_.mu[i] - state_.mu[j])));
}

absl::Status Glicko2::Restore(Glicko2State state) {
  const size_t n = state.mu.size();
  if (state.phi.size() != n || state.sigma.size() != n || state.last.size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("glicko2: state sizes differ (mu ", n, ", phi ",
                                                   state.phi.size(), ", sigma ", state.sigma.size(),
                                                   ", last ", state.last.size(), ")"));
  }
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(state.mu[i]) || !std::isfinite(state.phi[i]) || state.phi[i] < 0 ||
        !std::isfinite(state.sigma[i]) || state.sigma[i] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("glicko2: state of agent #", i, " is not finite or is negative"));
    }
  }
  state_ = std::move(state);
  return absl::OkStatus();
}

}  // namespace ratings
