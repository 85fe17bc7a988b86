// Synthetic evaluation data with a known ground truth (docs/MODELS.md §8): Mallows and
// Plackett–Luce task rankings ([AE] §3.2.1, App. C.2), clones (App. C.1),
// Condorcet cycles, and TrueSkill-style tournaments with uniform or skill-matched
// match-making ([SCO] §4.3). Every generator is a pure function
// of its options and seed (std::mt19937_64 with ratings/seeded_draws.h), so the same
// options give the same profile on every platform.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/result.h"

namespace ratings {

struct GeneratedProfile {
  std::vector<std::string> names;            // agent id -> name ("a0", "a1", ...)
  std::vector<std::vector<AgentId>> orders;  // each result: a strict order, best first
  std::vector<AgentId> truth;                // the ground-truth ranking, best first
  std::vector<double> truth_ratings;         // by agent id; empty when the model has none
};

struct MallowsOptions {
  int64_t agents = 8;       // m. Default 8 ([AE] §5.1.1).
  int64_t tasks = 50;       // n task rankings. Default 50 (§5.1.1).
  double dispersion = 0.5;  // phi in [0, 1]: 0 gives only the reference, 1 uniform. Default 0.5.
  uint64_t seed = 0;
};
// §3.2.1: a uniformly random reference ranking (the truth), then task rankings with
// P(r) proportional to phi^{K_d(reference, r)}, drawn exactly by the repeated insertion
// model (the i-th agent of the reference goes to position j <= i with probability
// proportional to phi^{i-j}).
absl::StatusOr<GeneratedProfile> GenerateMallows(const MallowsOptions& options);

struct PlackettLuceOptions {
  int64_t agents = 8;
  int64_t tasks = 50;
  double tau = 1.0;          // softmax temperature (App. C.2 uses 1 and 2). Default 1.
  double max_rating = 10.0;  // ratings uniform in [0, max_rating]. Default 10.
  uint64_t seed = 0;
};
// App. C.2: ratings uniform in [0, max_rating], truth = ratings descending; each task
// ranking draws agents one by one without replacement with P = softmax(theta / tau) over
// those left.
absl::StatusOr<GeneratedProfile> GeneratePlackettLuce(const PlackettLuceOptions& options);

struct ClonesOptions {
  MallowsOptions base = {};  // the original agents and their task rankings
  int64_t clones = 8;        // clones added one by one. Default 8 (App. C.1: 8 of 8 agents).
};
// App. C.1: after the base Mallows profile, each clone copies a uniformly chosen original
// agent a; a fair coin puts it directly ahead of a (heads) or behind a (tails) in every
// task ranking and in the truth. Clone c of agent "a3" is named "a3-clone<c>".
absl::StatusOr<GeneratedProfile> GenerateClones(const ClonesOptions& options);

struct CycleOptions {
  int64_t agents = 3;  // m >= 2. Default 3.
  int64_t tasks = 30;  // Default 30.
};
// A Condorcet cycle: task t ranks a_{t mod m} > a_{t+1 mod m} > ... (rotations of
// a0 > a1 > ... ). With tasks a multiple of m, each a_i beats a_{i+1} in (m-1)/m of the
// tasks and a_{m-1} beats a0 as often, so there is no Condorcet winner; the truth given is
// the unrotated order, one of the m equally good answers. Deterministic (no seed).
absl::StatusOr<GeneratedProfile> GenerateCycle(const CycleOptions& options);

enum class Matching { kUniform, kSkill };
struct TournamentOptions {
  int64_t agents = 20;    // |A|. Default 20 (SCO §4.3).
  int64_t players = 4;    // agents per contest. Default 4.
  int64_t contests = 50;  // n. Default 50.
  Matching matching = Matching::kUniform;
  double skill_mean = 100.0;  // theta_i ~ N(skill_mean, skill_std). Default N(100, 30).
  double skill_std = 30.0;
  double noise_std = 5.0;  // P_i(c) = theta_i + eps, eps ~ N(0, noise_std). Default 5.
  int64_t candidates = 3;  // skill matching: candidates drawn per slot. Default 3.
  uint64_t seed = 0;
};
// SCO §4.3: skills theta_i ~ N(mean, std) (truth = skills descending). Uniform matching
// draws `players` distinct agents uniformly; skill matching draws the first agent
// uniformly, then for each further slot draws `candidates` distinct agents not yet in the
// contest and keeps the one whose skill is closest to the mean skill of the contest so far.
// The result orders the contest by performance theta_i + N(0, noise_std), best first.
absl::StatusOr<GeneratedProfile> GenerateTournament(const TournamentOptions& options);

}  // namespace ratings
