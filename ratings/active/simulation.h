// [AE] Algorithm 1 over seeds (docs/ACTIVE.md §4): each seed draws a fresh score model
// (truth, task rankings, score distributions), runs an algorithm for T rounds and records
// GRE(k) every round; summaries give AGRE (Def. 3.3) with its 95% interval over seeds
// and the sliding-window GRE curves of the paper's figures. Seeds are independent: the
// caller may run them on any threads; summaries depend only on the seeds' results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/active/algorithm_options.h"
#include "ratings/active/score_generators.h"

namespace ratings::active {

struct SimulationOptions {
  int64_t rounds = 10000;          // T
  int64_t seeds = 100;             // independent runs
  std::vector<size_t> k = {3, 8};  // the k of GRE(k), each reported
  int64_t window = 250;            // the curves' sliding window (Fig. 2)
  uint64_t seed = 0;               // the base of every seed's streams
};

// The 64-bit seed of stream `stream` of run `index` (SplitMix64 of the three): run i's
// score model (stream 0), its algorithm's own draws (1), the choices (2) and the scores
// (3). The same for every algorithm, so all algorithms see the same score models.
uint64_t StreamSeed(uint64_t base, uint64_t index, uint64_t stream);

// The score model of run `index`.
absl::StatusOr<ScoreModel> SeedModel(const ScoreGeneratorOptions& generator,
                                     const SimulationOptions& sim, int64_t index);

// GRE of every round, per k (in sim.k's order): gre[j][t - 1] is GRE(k_j) of ≻^t.
struct SeedCurves {
  std::vector<std::vector<double>> gre;
};

// Runs `algorithm` on run `index`'s model for sim.rounds rounds. InvalidArgument for a k
// outside [1, |truth|] or an unknown algorithm; the algorithm's solver errors.
absl::StatusOr<SeedCurves> RunSeed(const ScoreGeneratorOptions& generator,
                                   absl::string_view algorithm, const AlgorithmOptions& options,
                                   const SimulationOptions& sim, int64_t index);

// One algorithm at one k over all seeds.
struct Summary {
  size_t k = 0;
  double agre = 0;                     // mean over seeds of AGRE(k)
  double agre_ci95 = 0;                // 1.96 · sample std / √seeds (0 for one seed)
  double final_gre = 0;                // mean over seeds of GRE at round T
  double final_gre_zero_fraction = 0;  // share of seeds whose GRE at round T is 0
  // With curves: per round t, the mean over seeds of the mean GRE of rounds
  // max(1, t - w + 1)..t, and its 95% half-width. Empty otherwise.
  std::vector<double> curve_mean = {};
  std::vector<double> curve_ci95 = {};
};

// Summaries per k (sim.k's order) of the seeds' curves, given in seed order. Sums run in
// that order, so the result does not depend on which thread ran which seed.
std::vector<Summary> Summarise(absl::Span<const SeedCurves> seeds, const SimulationOptions& sim,
                               bool curves);

}  // namespace ratings::active
