// An active evaluation algorithm of [AE] §4 as Algorithm 1 drives it (docs/ACTIVE.md §3):
// choose a task and two agents (line 2), observe their sampled scores (lines 3-4), report
// the current ranking (line 5). Task selection, agent selection and the update are the
// three parts every algorithm of Table 1 is made of.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/active/score_model.h"
#include "ratings/result.h"

namespace ratings::active {

// A pairwise evaluation to run: agents a != b on task `task`.
struct Query {
  TaskId task = 0;
  AgentId a = 0;
  AgentId b = 0;
};

// Its outcome: s(task, a) and s(task, b). score_a > score_b is a vote a ≻ b (§4.2); equal
// scores are a draw for the Elo-type updates and no vote for the voting rules.
struct Sample {
  TaskId task = 0;
  AgentId a = 0;
  AgentId b = 0;
  double score_a = 0;
  double score_b = 0;
};

// Not thread-safe; one owner. Every algorithm is deterministic given the draws of the
// generator passed to Choose().
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Alg. 1 line 2. `round` counts from 1.
  virtual Query Choose(int64_t round, std::mt19937_64& rng) = 0;
  // Line 4: folds the sample in.
  virtual void Observe(const Sample& sample) = 0;
  // Line 5: the current ranking of every agent, best first (ties by agent id).
  virtual std::vector<AgentId> Ranking() = 0;
  // OK, or the first error of a solver the algorithm runs (a run reporting it fails).
  virtual absl::Status status() const { return absl::OkStatus(); }
};

// An evaluator whose ranking is recomputed from everything observed (a batch method, a
// voting rule, an equilibrium): Observe() marks it stale, and Ranking() refits at most once
// per round. After a refit fails, the last ranking stays and status() holds the error.
class RefittingEvaluator : public Evaluator {
 public:
  std::vector<AgentId> Ranking() final {
    if (stale_ && status_.ok()) status_ = Refit(ranking_);
    stale_ = false;
    return ranking_;
  }
  absl::Status status() const final { return status_; }

 protected:
  // The ranking before any sample: agents in id order.
  explicit RefittingEvaluator(size_t agents) : ranking_(agents) {
    std::iota(ranking_.begin(), ranking_.end(), AgentId{0});
  }
  void MarkStale() { stale_ = true; }
  // Sets `ranking` from everything observed.
  virtual absl::Status Refit(std::vector<AgentId>& ranking) = 0;

 private:
  std::vector<AgentId> ranking_;
  bool stale_ = false;
  absl::Status status_;
};

}  // namespace ratings::active
