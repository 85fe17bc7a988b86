// Task and agent selection shared by the algorithms of [AE] §4 (docs/ACTIVE.md §3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "ratings/active/evaluator.h"

namespace ratings::active {

// Two distinct agents drawn uniformly (without replacement) from `agents` >= 2.
std::pair<AgentId, AgentId> UniformPair(size_t agents, std::mt19937_64& rng);

// A uniform task and pair: the selection of UNIFORMAVERAGING and most of Table 1.
Query UniformQuery(size_t tasks, size_t agents, std::mt19937_64& rng);

// σ'(a) = ε/|A| + (1 - ε) σ(a), the exploration mixing of Table 1's caption.
std::vector<double> MixUniform(absl::Span<const double> sigma, double epsilon);

// a ~ p, then b ~ p redrawn until b != a (§4.2.2). Needs two indices of positive mass.
std::pair<AgentId, AgentId> DistinctPairFrom(absl::Span<const double> p, std::mt19937_64& rng);

// The burn-in of §4.2 for mean-model and growing-batch algorithms: for the first n·m
// rounds the (task, agent) pairs of V×A are taken once each in one uniform shuffle, the
// second agent drawn uniformly from the others. Built lazily on the first round.
class BurnIn {
 public:
  BurnIn(size_t tasks, size_t agents) : tasks_(tasks), agents_(agents) {}
  // True while round <= n·m.
  bool Active(int64_t round) const { return round <= static_cast<int64_t>(tasks_ * agents_); }
  // Precondition: Active(round); rounds are asked in order 1, 2, ...
  Query Next(int64_t round, std::mt19937_64& rng);

 private:
  size_t tasks_;
  size_t agents_;
  std::vector<uint32_t> order_;  // shuffled cell indices v * m + a
};

}  // namespace ratings::active
