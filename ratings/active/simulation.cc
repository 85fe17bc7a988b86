#include "ratings/active/simulation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ratings/active/algorithms.h"
#include "ratings/active/top_k_scorer.h"

namespace ratings::active {
namespace {

uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Mean and 95% half-width (normal approximation) of values[i] for i in seeds.
std::pair<double, double> MeanAndCi95(const std::vector<double>& values) {
  const double n = static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += v;
  const double mean = sum / n;
  if (values.size() < 2) return {mean, 0.0};
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return {mean, 1.96 * std::sqrt(squares / (n - 1)) / std::sqrt(n)};
}

}  // namespace

uint64_t StreamSeed(uint64_t base, uint64_t index, uint64_t stream) {
  return SplitMix64(SplitMix64(SplitMix64(base) ^ index) ^ stream);
}

absl::StatusOr<ScoreModel> SeedModel(const ScoreGeneratorOptions& generator,
                                     const SimulationOptions& sim, int64_t index) {
  return GenerateScoreModel(generator, StreamSeed(sim.seed, static_cast<uint64_t>(index), 0));
}

absl::StatusOr<SeedCurves> RunSeed(const ScoreGeneratorOptions& generator,
                                   absl::string_view algorithm, const AlgorithmOptions& options,
                                   const SimulationOptions& sim, int64_t index) {
  absl::StatusOr<ScoreModel> model = SeedModel(generator, sim, index);
  if (!model.ok()) return model.status();
  const uint64_t i = static_cast<uint64_t>(index);
  absl::StatusOr<std::unique_ptr<Evaluator>> evaluator = MakeEvaluator(
      algorithm, model->tasks(), model->agents(), options, StreamSeed(sim.seed, i, 1));
  if (!evaluator.ok()) return evaluator.status();
  std::vector<TopKScorer> scorers;
  for (size_t k : sim.k) {
    if (k < 1 || k > model->truth().size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "k = ", k, " is outside [1, ", model->truth().size(), "] (the agents ranked)"));
    }
    scorers.emplace_back(model->truth(), model->agents(), k);
  }
  std::mt19937_64 choices(StreamSeed(sim.seed, i, 2));
  std::mt19937_64 scores(StreamSeed(sim.seed, i, 3));
  SeedCurves out;
  out.gre.assign(sim.k.size(), std::vector<double>(static_cast<size_t>(sim.rounds)));
  Evaluator& e = **evaluator;
  for (int64_t t = 1; t <= sim.rounds; ++t) {
    const Query q = e.Choose(t, choices);                               // Alg. 1 line 2
    const Sample s{q.task, q.a, q.b, model->Draw(q.task, q.a, scores),  // line 3
                   model->Draw(q.task, q.b, scores)};
    e.Observe(s);  // line 4
    const std::vector<AgentId> ranking = e.Ranking();
    for (size_t j = 0; j < scorers.size(); ++j) {  // line 5
      out.gre[j][static_cast<size_t>(t - 1)] = scorers[j].Gre(ranking);
    }
  }
  if (absl::Status s = e.status(); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(algorithm, ", run ", index, ": ", s.message()));
  }
  return out;
}

std::vector<Summary> Summarise(absl::Span<const SeedCurves> seeds, const SimulationOptions& sim,
                               bool curves) {
  std::vector<Summary> out;
  const size_t rounds = static_cast<size_t>(sim.rounds);
  const size_t window = static_cast<size_t>(std::max<int64_t>(sim.window, 1));
  for (size_t j = 0; j < sim.k.size(); ++j) {
    Summary summary;
    summary.k = sim.k[j];
    std::vector<double> agre, last;
    size_t zeros = 0;
    for (const SeedCurves& seed : seeds) {
      const std::vector<double>& gre = seed.gre[j];
      double sum = 0;
      for (double g : gre) sum += g;
      agre.push_back(sum / static_cast<double>(rounds));
      last.push_back(gre.back());
      zeros += gre.back() == 0 ? 1 : 0;
    }
    std::tie(summary.agre, summary.agre_ci95) = MeanAndCi95(agre);
    summary.final_gre = MeanAndCi95(last).first;
    summary.final_gre_zero_fraction =
        static_cast<double>(zeros) / static_cast<double>(seeds.size());
    if (curves) {
      // Windowed means per seed, built by a running sum of the window.
      std::vector<std::vector<double>> windowed(seeds.size(), std::vector<double>(rounds));
      for (size_t s = 0; s < seeds.size(); ++s) {
        const std::vector<double>& gre = seeds[s].gre[j];
        double sum = 0;
        for (size_t t = 0; t < rounds; ++t) {
          sum += gre[t];
          if (t >= window) sum -= gre[t - window];
          windowed[s][t] = sum / static_cast<double>(std::min(t + 1, window));
        }
      }
      summary.curve_mean.resize(rounds);
      summary.curve_ci95.resize(rounds);
      std::vector<double> column(seeds.size());
      for (size_t t = 0; t < rounds; ++t) {
        for (size_t s = 0; s < seeds.size(); ++s) column[s] = windowed[s][t];
        std::tie(summary.curve_mean[t], summary.curve_ci95[t]) = MeanAndCi95(column);
      }
    }
    out.push_back(std::move(summary));
  }
  return out;
}

}  // namespace ratings::active
