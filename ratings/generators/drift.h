// Two-player results whose true skills drift, with agents that come and go, each at an
// event time (docs/MODELS.md §8): the stream on which a model that knows time (Glicko-2,
// docs/MODELS.md §10) should predict better than one that does not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ratings/result.h"

namespace ratings {

struct DriftOptions {
  int64_t agents = 40;      // agents in all, >= 2
  int64_t active = 10;      // playing at a time, in [2, agents]; the rest wait to come in
  int64_t results = 10000;  // >= 1
  double per_day = 20;      // results per day of event time on average, > 0
  double walk = 40;         // standard deviation of a skill's change per day (Elo points), >= 0
  double skill_std = 200;   // spread of the starting skills (Elo points), >= 0
  double churn = 0.1;       // per result, probability that one active agent leaves and one
                            // waiting agent comes in, in [0, 1]
  absl::Time start = absl::FromUnixSeconds(1'704'067'200);  // 2024-01-01T00:00:00Z
  uint64_t seed = 0;
};

struct DriftGame {
  AgentId winner = 0;
  AgentId loser = 0;
  absl::Time time;
};

struct DriftStream {
  std::vector<std::string> names;  // "agent-<i>", i from 1, by id
  std::vector<DriftGame> games;    // in event-time order
  std::vector<double> skills;      // every agent's true skill at the last event time
};

// The stream. Skills start as skill_std·N(0, 1) and walk as Brownian motion: over d days a
// skill moves by walk·√d·N(0, 1), drawn when its agent next plays (and for the final
// skills). Gaps between results are exponential with mean 1/per_day days. Each result:
// first, with probability churn, a uniformly drawn active agent leaves for the back of the
// waiting line and the agent at its front comes in; then two distinct active agents drawn
// uniformly play, the first winning with probability 1/(1 + 10^((s₂ − s₁)/400)).
// std::mt19937_64 with ratings/seeded_draws.h: a seed gives the same stream everywhere.
// InvalidArgument naming the option out of range.
absl::StatusOr<DriftStream> GenerateDrift(const DriftOptions& options);

}  // namespace ratings
