#include "ratings/games/skill_game.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"

namespace ratings::games {
namespace {

// Dirichlet(1, ..., 1): normalised standard exponentials.
Eigen::VectorXd Dirichlet(size_t dims, std::mt19937_64& rng) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(dims));
  for (Eigen::Index s = 0; s < v.size(); ++s) v[s] = -std::log(UniformOpen01(rng));
  return v / v.sum();
}

}  // namespace

absl::StatusOr<SkillGame> GenerateSkillGame(const SkillGameOptions& o) {
  if (o.prompts < 1) return absl::InvalidArgumentError("prompts: must be at least 1");
  if (o.models < 2) return absl::InvalidArgumentError("models: must be at least 2");
  if (o.skills < 1) return absl::InvalidArgumentError("skills: must be at least 1");
  if (!(o.lambda >= 0) || !std::isfinite(o.lambda)) {
    return absl::InvalidArgumentError("lambda: must be finite and >= 0");
  }
  if (!(o.noise >= 0 && o.noise <= 1))
    return absl::InvalidArgumentError("noise: must be in [0, 1]");
  if (!(o.ties >= 0 && o.ties <= 1)) return absl::InvalidArgumentError("ties: must be in [0, 1]");
  if (o.sampled > 0 && o.noise > 0) {
    return absl::InvalidArgumentError("noise: must be 0 with sampled battles (copies repeat them)");
  }
  std::mt19937_64 rng(o.seed);
  SkillGame game;
  for (size_t p = 0; p < o.prompts; ++p) game.prompt_skills.push_back(Dirichlet(o.skills, rng));
  for (size_t m = 0; m < o.models; ++m) game.model_skills.push_back(Dirichlet(o.skills, rng));
  auto name = [](size_t m) { return absl::StrCat("m", m + 1); };
  auto u = [&](size_t p, size_t a, size_t b) {
    return game.prompt_skills[p].dot(game.model_skills[a] - game.model_skills[b]);
  };
  // Sampled battles of original prompt p, kept for its copies to repeat.
  std::vector<std::vector<Judgement>> battles(o.sampled > 0 ? o.prompts : 0);
  auto sample = [&](size_t p) {
    for (size_t a = 0; a < o.models; ++a) {
      for (size_t b = a + 1; b < o.models; ++b) {
        for (size_t k = 0; k < o.sampled; ++k) {
          const bool swap = k % 2 == 1;
          const double pref = swap ? u(p, b, a) : u(p, a, b);
          const double draw = Uniform01(rng);
          const double value = draw < o.ties                                   ? 0.0
                               : draw < o.ties + (1 - o.ties) * (1 + pref) / 2 ? 1.0
                                                                               : -1.0;
          battles[p].push_back({"", name(swap ? b : a), name(swap ? a : b), value});
        }
      }
    }
  };
  auto judge = [&](const std::string& prompt, size_t p, double noise_width) {
    if (o.sampled > 0) {
      if (battles[p].empty()) sample(p);
      for (Judgement j : battles[p]) {
        j.prompt = prompt;
        game.judgements.push_back(std::move(j));
      }
      return;
    }
    for (size_t a = 0; a < o.models; ++a) {
      for (size_t b = a + 1; b < o.models; ++b) {
        double value = u(p, a, b);
        if (noise_width > 0) value += noise_width * (2 * Uniform01(rng) - 1);
        game.judgements.push_back({prompt, name(a), name(b), std::clamp(value, -1.0, 1.0)});
      }
    }
  };
  for (size_t p = 0; p < o.prompts; ++p) judge(absl::StrCat("q", p + 1), p, 0);
  if (o.copies == 0) return game;
  // ū_k(target)(p) = (1/M) sum_r u_k(p, target, r), over the original prompts.
  size_t target = 0;
  if (o.target.empty()) {
    double best = -1e300;
    for (size_t m = 0; m < o.models; ++m) {
      double mean = 0;
      for (size_t p = 0; p < o.prompts; ++p) {
        for (size_t r = 0; r < o.models; ++r) mean += u(p, m, r);
      }
      if (mean > best) {
        best = mean;
        target = m;
      }
    }
  } else {
    while (target < o.models && name(target) != o.target) ++target;
    if (target == o.models) {
      return absl::InvalidArgumentError(
          absl::StrCat("target: no model '", o.target, "' (models are m1..m", o.models, ")"));
    }
  }
  game.target = name(target);
  std::vector<double> logits(o.prompts);
  for (size_t p = 0; p < o.prompts; ++p) {
    double mean = 0;
    for (size_t r = 0; r < o.models; ++r) mean += u(p, target, r);
    logits[p] = -o.lambda * mean / static_cast<double>(o.models);
  }
  const double top = *std::max_element(logits.begin(), logits.end());
  std::vector<double> weights;
  for (double l : logits) weights.push_back(std::exp(l - top));
  for (size_t c = 0; c < o.copies; ++c) {
    const size_t p = DrawWeighted(weights, rng);
    judge(absl::StrCat("q", p + 1, "-copy", c + 1), p, o.noise);
  }
  return game;
}

}  // namespace ratings::games
