#include "ratings/active/score_generators.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "ratings/generators/generated_profile.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

using Matrix = std::vector<std::vector<double>>;

// A separate stream for the means, so the task rankings are exactly those of
// ratings/generators for the same seed.
constexpr uint64_t kMeansStream = 0xD1B54A32D192ED03ULL;

absl::Status CheckRanges(const ScoreGeneratorOptions& o) {
  if (!std::isfinite(o.low) || !std::isfinite(o.high) || o.low >= o.high) {
    return absl::InvalidArgumentError(
        absl::StrCat("low and high must be finite with low < high, got ", o.low, ", ", o.high));
  }
  if (!std::isfinite(o.sigma) || o.sigma < 0) {
    return absl::InvalidArgumentError(absl::StrCat("sigma must be finite and >= 0, got ", o.sigma));
  }
  if (o.kind == GeneratorKind::kClones &&
      (!std::isfinite(o.epsilon) || o.epsilon <= 0 || o.epsilon >= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("epsilon must be in (0, 1), got ", o.epsilon));
  }
  return absl::OkStatus();
}

// Per task, m means uniform in [low, high] sorted along the task ranking (best first).
Matrix MeansAlong(const std::vector<std::vector<AgentId>>& orders, size_t m, double low,
                  double high, std::mt19937_64& rng) {
  Matrix means(orders.size(), std::vector<double>(m, 0.0));
  std::vector<double> draws(m);
  for (size_t v = 0; v < orders.size(); ++v) {
    for (double& d : draws) d = low + (high - low) * Uniform01(rng);
    std::sort(draws.begin(), draws.end(), std::greater<>());
    for (size_t pos = 0; pos < m; ++pos) means[v][orders[v][pos]] = draws[pos];
  }
  return means;
}

absl::StatusOr<ScoreModel> FromProfile(const GeneratedProfile& profile,
                                       const ScoreGeneratorOptions& o, uint64_t seed) {
  std::mt19937_64 rng(seed ^ kMeansStream);
  const size_t m = profile.names.size();
  Matrix means = MeansAlong(profile.orders, m, o.low, o.high, rng);
  Matrix stds(means.size(), std::vector<double>(m, o.sigma));
  return ScoreModel::Create(profile.names, std::move(means), std::move(stds), profile.truth);
}

// App. C.1 on the means of a Mallows model (see GenerateScoreModel).
absl::StatusOr<ScoreModel> WithClones(const GeneratedProfile& base, const ScoreGeneratorOptions& o,
                                      uint64_t seed) {
  std::mt19937_64 rng(seed ^ kMeansStream);
  const size_t originals = base.names.size();
  Matrix means = MeansAlong(base.orders, originals, o.low, o.high, rng);
  std::vector<std::string> names = base.names;
  for (int64_t c = 1; c <= o.clones; ++c) {
    const AgentId of = static_cast<AgentId>(UniformIndex(rng, originals));
    const bool ahead = (rng() & 1) == 1;  // heads: directly ahead
    names.push_back(absl::StrCat(names[of], "-clone", c));
    for (std::vector<double>& row : means) {
      const double mu = row[of];
      // The neighbour b: the closest mean above (ahead) or below (behind) a's.
      double neighbour = ahead ? o.high : o.low;
      for (double other : row) {
        if (ahead && other > mu && other < neighbour) neighbour = other;
        if (!ahead && other < mu && other > neighbour) neighbour = other;
      }
      row.push_back(mu + o.epsilon * (neighbour - mu));
    }
  }
  Matrix stds(means.size(), std::vector<double>(names.size(), o.sigma));
  return ScoreModel::Create(std::move(names), std::move(means), std::move(stds), base.truth);
}

absl::StatusOr<ScoreModel> FromTable(const ScoreGeneratorOptions& o) {
  Matrix means = o.table_means;
  Matrix stds = o.table_stds;
  if (means.size() != stds.size()) {
    return absl::InvalidArgumentError("the table has unequal numbers of mean and std rows");
  }
  for (size_t v = 0; v < means.size(); ++v) {
    if (means[v].empty() || means[v].size() != stds[v].size()) {
      return absl::InvalidArgumentError(absl::StrCat("table row ", v, " is malformed"));
    }
    const auto [lo, hi] = std::minmax_element(means[v].begin(), means[v].end());
    const double min = *lo;
    const double range = *hi - *lo;
    for (size_t a = 0; a < means[v].size(); ++a) {
      if (range > 0) {
        means[v][a] = 100.0 * (means[v][a] - min) / range;
        stds[v][a] *= 100.0 / range;
      } else {
        means[v][a] = 50.0;
        stds[v][a] = 0.0;
      }
    }
  }
  absl::StatusOr<MeanKemeny> truth = KemenyOfMeans(means);
  if (!truth.ok()) return truth.status();
  return ScoreModel::Create(o.table_agents, std::move(means), std::move(stds),
                            std::move(truth->ranking));
}

}  // namespace

absl::StatusOr<MeanKemeny> KemenyOfMeans(const Matrix& means) {
  if (means.empty()) return absl::InvalidArgumentError("no tasks");
  const size_t m = means.front().size();
  Eigen::MatrixXd n = Eigen::MatrixXd::Zero(m, m);
  for (const std::vector<double>& row : means) {
    if (row.size() != m) return absl::InvalidArgumentError("rows of unequal length");
    for (size_t a = 0; a < m; ++a) {
      for (size_t b = 0; b < m; ++b) n(a, b) += row[a] > row[b] ? 1.0 : 0.0;
    }
  }
  const std::vector<uint32_t> priority = voting::IdentityPriority(m);
  absl::StatusOr<voting::KemenyOutcome> kemeny = voting::Kemeny(n, {}, priority);
  if (!kemeny.ok()) return kemeny.status();
  return MeanKemeny{kemeny->order.order, kemeny->value};
}

absl::StatusOr<ScoreModel> GenerateScoreModel(const ScoreGeneratorOptions& o, uint64_t seed) {
  if (absl::Status s = CheckRanges(o); !s.ok()) return s;
  switch (o.kind) {
    case GeneratorKind::kMallows:
    case GeneratorKind::kClones: {
      absl::StatusOr<GeneratedProfile> profile = GenerateMallows(
          {.agents = o.agents, .tasks = o.tasks, .dispersion = o.phi, .seed = seed});
      if (!profile.ok()) return profile.status();
      if (o.kind == GeneratorKind::kMallows) return FromProfile(*profile, o, seed);
      if (o.clones < 0 || o.clones > 1000) {
        return absl::InvalidArgumentError(
            absl::StrCat("clones must be in [0, 1000], got ", o.clones));
      }
      return WithClones(*profile, o, seed);
    }
    case GeneratorKind::kPlackettLuce: {
      absl::StatusOr<GeneratedProfile> profile = GeneratePlackettLuce({.agents = o.agents,
                                                                       .tasks = o.tasks,
                                                                       .tau = o.tau,
                                                                       .max_rating = o.theta_max,
                                                                       .seed = seed});
      if (!profile.ok()) return profile.status();
      return FromProfile(*profile, o, seed);
    }
    case GeneratorKind::kTable:
      return FromTable(o);
  }
  return absl::InvalidArgumentError("unknown generator kind");
}

}  // namespace ratings::active
