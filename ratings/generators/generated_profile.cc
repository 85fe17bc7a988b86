#include "ratings/generators/generated_profile.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ratings/seeded_draws.h"

namespace ratings {
namespace {

constexpr int64_t kMaxAgents = 1'000'000;
constexpr int64_t kMaxResults = 100'000'000;

absl::Status CheckSizes(const char* model, int64_t agents, int64_t results, int64_t min_agents) {
  if (agents < min_agents || agents > kMaxAgents) {
    return absl::InvalidArgumentError(absl::StrCat(model, ": agents must be in [", min_agents, ", ",
                                                   kMaxAgents, "], got ", agents));
  }
  if (results < 0 || results > kMaxResults) {
    return absl::InvalidArgumentError(absl::StrCat(model, ": the number of results must be in [0, ",
                                                   kMaxResults, "], got ", results));
  }
  return absl::OkStatus();
}

// "a0".."a9" for 10 agents, "a00".."a19" for 20: names sort like ids.
std::vector<std::string> Names(int64_t m) {
  const int width = static_cast<int>(absl::StrCat(std::max<int64_t>(m - 1, 0)).size());
  std::vector<std::string> names;
  names.reserve(m);
  for (int64_t i = 0; i < m; ++i) names.push_back(absl::StrFormat("a%0*d", width, i));
  return names;
}

void Shuffle(std::vector<AgentId>& v, std::mt19937_64& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[UniformIndex(rng, i)]);
}

std::vector<AgentId> Identity(int64_t m) {
  std::vector<AgentId> v(m);
  std::iota(v.begin(), v.end(), AgentId{0});
  return v;
}

// Agents by rating descending, then id ascending.
std::vector<AgentId> ByRating(const std::vector<double>& rating) {
  std::vector<AgentId> order = Identity(static_cast<int64_t>(rating.size()));
  std::stable_sort(order.begin(), order.end(),
                   [&](AgentId x, AgentId y) { return rating[x] > rating[y]; });
  return order;
}

// A profile of m named agents with ground-truth ratings draw() (drawn in id order) and
// the truth ranking by them.
template <typename Draw>
GeneratedProfile RatedAgents(int64_t m, Draw draw) {
  GeneratedProfile out;
  out.names = Names(m);
  out.truth_ratings.resize(m);
  for (double& r : out.truth_ratings) r = draw();
  out.truth = ByRating(out.truth_ratings);
  return out;
}

}  // namespace

absl::StatusOr<GeneratedProfile> GenerateMallows(const MallowsOptions& o) {
  if (absl::Status s = CheckSizes("mallows", o.agents, o.tasks, 2); !s.ok()) return s;
  if (!(o.dispersion >= 0 && o.dispersion <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("mallows: dispersion must be in [0, 1], got ", o.dispersion));
  }
  std::mt19937_64 rng(o.seed);
  GeneratedProfile out;
  out.names = Names(o.agents);
  out.truth = Identity(o.agents);
  Shuffle(out.truth, rng);
  std::vector<double> weights;
  for (int64_t t = 0; t < o.tasks; ++t) {
    std::vector<AgentId> order;
    order.reserve(o.agents);
    for (int64_t i = 0; i < o.agents; ++i) {
      // Repeated insertion: position j (0 = top) above i - j better agents of the
      // reference adds i - j inversions; pow(0, 0) = 1 keeps the reference at phi = 0.
      weights.assign(i + 1, 0.0);
      for (int64_t j = 0; j <= i; ++j) weights[j] = std::pow(o.dispersion, double(i - j));
      const size_t j = DrawWeighted(weights, rng);
      order.insert(order.begin() + static_cast<std::ptrdiff_t>(j), out.truth[i]);
    }
    out.orders.push_back(std::move(order));
  }
  return out;
}

absl::StatusOr<GeneratedProfile> GeneratePlackettLuce(const PlackettLuceOptions& o) {
  if (absl::Status s = CheckSizes("plackett-luce", o.agents, o.tasks, 2); !s.ok()) return s;
  if (!std::isfinite(o.tau) || o.tau <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("plackett-luce: tau must be finite and > 0, got ", o.tau));
  }
  if (!std::isfinite(o.max_rating) || o.max_rating <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("plackett-luce: max_rating must be finite and > 0, got ", o.max_rating));
  }
  std::mt19937_64 rng(o.seed);
  GeneratedProfile out = RatedAgents(o.agents, [&] { return o.max_rating * Uniform01(rng); });
  std::vector<double> weights;
  for (int64_t t = 0; t < o.tasks; ++t) {
    std::vector<AgentId> left = Identity(o.agents);
    std::vector<AgentId> order;
    while (!left.empty()) {
      // softmax(theta / tau) over the agents left; shifted by the maximum for range.
      double top = -INFINITY;
      for (AgentId a : left) top = std::max(top, out.truth_ratings[a]);
      weights.resize(left.size());
      for (size_t i = 0; i < left.size(); ++i) {
        weights[i] = std::exp((out.truth_ratings[left[i]] - top) / o.tau);
      }
      const size_t pick = DrawWeighted(weights, rng);
      order.push_back(left[pick]);
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    out.orders.push_back(std::move(order));
  }
  return out;
}

absl::StatusOr<GeneratedProfile> GenerateClones(const ClonesOptions& o) {
  if (o.clones < 0 || o.clones > kMaxAgents) {
    return absl::InvalidArgumentError(
        absl::StrCat("clones: clones must be in [0, ", kMaxAgents, "], got ", o.clones));
  }
  absl::StatusOr<GeneratedProfile> base = GenerateMallows(o.base);
  if (!base.ok()) return base.status();
  GeneratedProfile out = *std::move(base);
  // A separate stream (the seed offset by the golden-ratio constant), so the base
  // profile is exactly GenerateMallows(o.base).
  std::mt19937_64 rng(o.base.seed + 0x9E3779B97F4A7C15ULL);
  const size_t originals = out.names.size();
  auto insert_beside = [](std::vector<AgentId>& order, AgentId of, AgentId clone, bool ahead) {
    auto it = std::find(order.begin(), order.end(), of);
    order.insert(ahead ? it : it + 1, clone);
  };
  for (int64_t c = 1; c <= o.clones; ++c) {
    const AgentId of = static_cast<AgentId>(UniformIndex(rng, originals));
    const bool ahead = (rng() & 1) == 1;  // heads: directly ahead (App. C.1)
    const AgentId clone = static_cast<AgentId>(out.names.size());
    out.names.push_back(absl::StrCat(out.names[of], "-clone", c));
    insert_beside(out.truth, of, clone, ahead);
    for (std::vector<AgentId>& order : out.orders) insert_beside(order, of, clone, ahead);
  }
  return out;
}

absl::StatusOr<GeneratedProfile> GenerateCycle(const CycleOptions& o) {
  if (absl::Status s = CheckSizes("cycle", o.agents, o.tasks, 2); !s.ok()) return s;
  GeneratedProfile out;
  out.names = Names(o.agents);
  out.truth = Identity(o.agents);
  for (int64_t t = 0; t < o.tasks; ++t) {
    std::vector<AgentId> order(o.agents);
    for (int64_t j = 0; j < o.agents; ++j) order[j] = static_cast<AgentId>((j + t) % o.agents);
    out.orders.push_back(std::move(order));
  }
  return out;
}

absl::StatusOr<GeneratedProfile> GenerateTournament(const TournamentOptions& o) {
  if (absl::Status s = CheckSizes("tournament", o.agents, o.contests, 2); !s.ok()) return s;
  if (o.players < 2 || o.players > o.agents) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament: players must be in [2, ", o.agents, "], got ", o.players));
  }
  if (!std::isfinite(o.skill_mean) || !std::isfinite(o.skill_std) || o.skill_std < 0 ||
      !std::isfinite(o.noise_std) || o.noise_std < 0) {
    return absl::InvalidArgumentError(
        "tournament: skill_mean, skill_std and noise_std must be finite, the stds >= 0");
  }
  if (o.candidates < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament: candidates must be >= 1, got ", o.candidates));
  }
  std::mt19937_64 rng(o.seed);
  GeneratedProfile out =
      RatedAgents(o.agents, [&] { return o.skill_mean + o.skill_std * StandardNormal(rng); });
  const std::vector<double>& skill = out.truth_ratings;
  std::vector<AgentId> pool;  // agents not yet in the contest; the contest is the tail
  std::vector<double> performance(o.agents);
  for (int64_t c = 0; c < o.contests; ++c) {
    pool = Identity(o.agents);
    std::vector<AgentId> contest;
    // Move pool[i] into the contest (swap-remove keeps the pool contiguous).
    auto take = [&](size_t i) {
      contest.push_back(pool[i]);
      pool[i] = pool.back();
      pool.pop_back();
    };
    take(UniformIndex(rng, pool.size()));
    double skill_sum = skill[contest[0]];
    while (static_cast<int64_t>(contest.size()) < o.players) {
      if (o.matching == Matching::kUniform) {
        take(UniformIndex(rng, pool.size()));
      } else {
        // Draw `candidates` distinct agents (partial Fisher–Yates at the pool's front),
        // keep the one closest to the contest's mean skill; the first drawn wins ties.
        const size_t draws = std::min<size_t>(static_cast<size_t>(o.candidates), pool.size());
        for (size_t i = 0; i < draws; ++i) {
          std::swap(pool[i], pool[i + UniformIndex(rng, pool.size() - i)]);
        }
        const double mean = skill_sum / static_cast<double>(contest.size());
        size_t best = 0;
        for (size_t i = 1; i < draws; ++i) {
          if (std::abs(skill[pool[i]] - mean) < std::abs(skill[pool[best]] - mean)) best = i;
        }
        take(best);
      }
      skill_sum += skill[contest.back()];
    }
    for (AgentId a : contest) performance[a] = skill[a] + o.noise_std * StandardNormal(rng);
    std::stable_sort(contest.begin(), contest.end(),
                     [&](AgentId x, AgentId y) { return performance[x] > performance[y]; });
    out.orders.push_back(std::move(contest));
  }
  return out;
}

}  // namespace ratings
