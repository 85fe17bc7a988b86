#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "ratings/batch/rating_intervals.h"

namespace ratings {

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
  // Steps 3 and 4 for each agent: its period is the result's other agents, from the same
  // pre-result state.
  absl::InlinedVector<Glicko2Sums, 8> sums(k);
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
    sums[i] = Glicko2PeriodSums(before[i], games);
  }
  // Step 5 for every agent whose games carry information (Glicko2Period leaves the others
  // as they were), one step of each search in turn: the searches are independent, and
  // interleaved their divisions and exps overlap.
  absl::InlinedVector<std::optional<Glicko2VolatilitySearch>, 8> searches(k);
  for (size_t i = 0; i < k; ++i) {
    if (sums[i].information > 0) searches[i].emplace(before[i], sums[i], tau_);
  }
  for (bool stepped = true; stepped;) {
    stepped = false;
    for (std::optional<Glicko2VolatilitySearch>& search : searches) {
      if (search.has_value() && !search->done()) {
        search->Step();
        stepped = true;
      }
    }
  }
  // Steps 6 and 7.
  for (size_t i = 0; i < k; ++i) {
    const Glicko2Player after =
        searches[i].has_value() ? Glicko2FinishPeriod(before[i], sums[i], searches[i]->volatility())
                                : before[i];
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
