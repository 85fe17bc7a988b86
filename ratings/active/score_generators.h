// The data generators of [AE] (docs/ACTIVE.md §2): Mallows and Plackett–Luce task rankings
// with normal score distributions behind them (§3.2.1, App. C.2), clones with
// ε-perturbed means (App. C.1), and the score-table simulator of §5.2.1 (the Atari Agent57
// table, or any table `ratingctl rate` reads). Pure functions of their options and seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/active/score_model.h"

namespace ratings::active {

enum class GeneratorKind { kMallows, kPlackettLuce, kClones, kTable };

struct ScoreGeneratorOptions {
  GeneratorKind kind = GeneratorKind::kMallows;
  int64_t agents = 8;     // m (§5.1). Not used by tables.
  int64_t tasks = 50;     // n (§5.1). Not used by tables.
  double phi = 0.3;       // Mallows dispersion (Table 2 runs 0.3 and 0.6).
  double tau = 1.0;       // Plackett–Luce temperature (Fig. 7 runs 1 and 2).
  double theta_max = 10;  // Plackett–Luce ratings uniform in [0, theta_max] (App. C.2: not given).
  int64_t clones = 8;     // App. C.1: 8 clones of the 8 originals.
  double epsilon = 0.1;   // App. C.1's ε (not given in the paper).
  double sigma = 20;      // std of every S_{v,a} (§5.1).
  double low = 0;         // means drawn uniformly in [low, high] (§5.1: [0, 100]).
  double high = 100;
  // kTable: the agents and, per task, their means and stds (a table io::ParseScoreTable read).
  std::vector<std::string> table_agents = {};
  std::vector<std::vector<double>> table_means = {};
  std::vector<std::vector<double>> table_stds = {};
};

// Mallows / Plackett–Luce / clones: the task rankings of ratings/generators for the seed,
// then per task m means drawn uniformly in [low, high] and sorted along the task ranking
// (the highest to its top agent), std sigma. Clones start from the Mallows model and add
// `clones` agents one by one: each copies an original a drawn uniformly (with
// replacement); on heads (a fair coin) the clone goes directly ahead of a in every task,
// its mean mu_a + ε (mu_b - mu_a) with b the agent directly above a in that task (the
// bound `high` when a is on top); on tails directly behind, b the agent directly below
// (`low` at the bottom). The truth stays the originals' Mallows reference: errors are
// measured on them only (App. C.1). Names "a0".."a7", clones "a3-clone1", ...
//
// Table: per task, means mapped linearly from [min_a mean, max_a mean] to [0, 100] and
// stds scaled by the same factor (a task whose means are all equal keeps mean 50 and std
// 0); truth = the Kemeny ranking of the task rankings by mean, where equal means count
// for neither agent (ties between optimal orders go to the earlier column).
//
// InvalidArgument naming the parameter when one is out of range.
absl::StatusOr<ScoreModel> GenerateScoreModel(const ScoreGeneratorOptions& options, uint64_t seed);

// The Kemeny ranking of the task rankings by mean (equal means count for neither agent)
// and its Kemeny score (App. B.1, Eq. 5): the total, over the pairs it orders a above b,
// of the number of tasks where a's mean is strictly above b's.
struct MeanKemeny {
  std::vector<AgentId> ranking;
  double score = 0;
};
absl::StatusOr<MeanKemeny> KemenyOfMeans(const std::vector<std::vector<double>>& means);

}  // namespace ratings::active
