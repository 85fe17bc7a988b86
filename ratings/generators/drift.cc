#include "ratings/generators/drift.h"

#include <cmath>
#include <deque>

#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"

namespace ratings {
namespace {

absl::Status CheckOptions(const DriftOptions& o) {
  const auto bad = [](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("drift: ", what));
  };
  if (o.agents < 2) return bad(absl::StrCat("agents must be >= 2, got ", o.agents));
  if (o.active < 2 || o.active > o.agents) {
    return bad(absl::StrCat("active must be in [2, agents], got ", o.active));
  }
  if (o.results < 1) return bad(absl::StrCat("results must be >= 1, got ", o.results));
  if (!(o.per_day > 0) || !std::isfinite(o.per_day)) {
    return bad(absl::StrCat("per_day must be finite and > 0, got ", o.per_day));
  }
  if (!(o.walk >= 0) || !std::isfinite(o.walk)) {
    return bad(absl::StrCat("walk must be finite and >= 0, got ", o.walk));
  }
  if (!(o.skill_std >= 0) || !std::isfinite(o.skill_std)) {
    return bad(absl::StrCat("skill_std must be finite and >= 0, got ", o.skill_std));
  }
  if (!(o.churn >= 0 && o.churn <= 1)) {
    return bad(absl::StrCat("churn must be in [0, 1], got ", o.churn));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DriftStream> GenerateDrift(const DriftOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  std::mt19937_64 rng(options.seed);
  const auto n = static_cast<size_t>(options.agents);
  DriftStream out;
  out.skills.resize(n);
  std::vector<absl::Time> moved(n, options.start);  // when each skill was last drawn
  for (size_t i = 0; i < n; ++i) {
    out.names.push_back(absl::StrCat("agent-", i + 1));
    out.skills[i] = options.skill_std * StandardNormal(rng);
  }
  std::vector<AgentId> active;
  std::deque<AgentId> waiting;
  for (size_t i = 0; i < n; ++i) {
    if (i < static_cast<size_t>(options.active)) {
      active.push_back(static_cast<AgentId>(i));
    } else {
      waiting.push_back(static_cast<AgentId>(i));
    }
  }
  // A skill's walk from its last draw to `time`.
  const auto walk_to = [&](AgentId a, absl::Time time) {
    const double days = absl::ToDoubleHours(time - moved[a]) / 24.0;
    if (options.walk > 0 && days > 0) {
      out.skills[a] += options.walk * std::sqrt(days) * StandardNormal(rng);
    }
    moved[a] = time;
  };
  absl::Time now = options.start;
  out.games.reserve(static_cast<size_t>(options.results));
  for (int64_t r = 0; r < options.results; ++r) {
    now += absl::Hours(24.0 * -std::log(UniformOpen01(rng)) / options.per_day);
    if (!waiting.empty() && Uniform01(rng) < options.churn) {
      const size_t leaving = UniformIndex(rng, active.size());
      waiting.push_back(active[leaving]);
      active[leaving] = waiting.front();
      waiting.pop_front();
    }
    const size_t i = UniformIndex(rng, active.size());
    size_t j = UniformIndex(rng, active.size() - 1);
    if (j >= i) ++j;
    const AgentId a = active[i], b = active[j];
    walk_to(a, now);
    walk_to(b, now);
    const double p = 1.0 / (1.0 + std::pow(10.0, (out.skills[b] - out.skills[a]) / 400.0));
    const bool a_wins = Uniform01(rng) < p;
    out.games.push_back({.winner = a_wins ? a : b, .loser = a_wins ? b : a, .time = now});
  }
  for (size_t a = 0; a < n; ++a) walk_to(static_cast<AgentId>(a), now);
  return out;
}

}  // namespace ratings
