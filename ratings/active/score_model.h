// The data generator D of [AE] Alg. 1: per (task, agent) a score distribution
// S_{v,a} = N(mean, std), a ground-truth ranking, and the agents that truth covers
// (docs/ACTIVE.md §2). Pure and immutable once built; draws use the caller's generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/result.h"
#include "ratings/seeded_draws.h"

namespace ratings::active {

using TaskId = uint32_t;

class ScoreModel {
 public:
  // `means` and `stds` are [task][agent], every row of names.size() entries; `truth` is a
  // ranking (best first) of the agents errors are measured on: every agent, or a subset
  // (the originals of a clone experiment, [AE] App. C.1). InvalidArgument naming the task
  // and agent of a non-finite mean or a negative or non-finite std, or for a truth that
  // repeats an agent or names one beyond the table.
  static absl::StatusOr<ScoreModel> Create(std::vector<std::string> names,
                                           std::vector<std::vector<double>> means,
                                           std::vector<std::vector<double>> stds,
                                           std::vector<AgentId> truth);

  size_t agents() const { return names_.size(); }
  size_t tasks() const { return means_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  double mean(TaskId v, AgentId a) const { return means_[v][a]; }
  double stddev(TaskId v, AgentId a) const { return stds_[v][a]; }
  const std::vector<AgentId>& truth() const { return truth_; }

  // One score s(v, a) ~ N(mean, std) (Alg. 1 line 3). Precondition: v < tasks(), a < agents().
  double Draw(TaskId v, AgentId a, std::mt19937_64& rng) const {
    const double std = stds_[v][a];
    return std == 0 ? means_[v][a] : means_[v][a] + std * StandardNormal(rng);
  }

 private:
  ScoreModel() = default;
  std::vector<std::string> names_;
  std::vector<std::vector<double>> means_;
  std::vector<std::vector<double>> stds_;
  std::vector<AgentId> truth_;
};

// The agents of each task sorted by mean, best first; equal means keep id order (they are
// reported as ties by the callers that need them).
std::vector<std::vector<AgentId>> MeanRankings(const ScoreModel& model);

}  // namespace ratings::active
