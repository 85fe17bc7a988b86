// The mean model's state ([AE] §4.2): the running mean score s̄_{v,a} of every (task,
// agent) and the estimated task rankings that sort them. Shared by the mean-model
// algorithms, proportional representation and growing-batch Nash averaging.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "ratings/active/evaluator.h"
#include "ratings/voting/batch_tally.h"

namespace ratings::active {

class TaskMeans {
 public:
  TaskMeans(size_t tasks, size_t agents);
  void Add(const Sample& s);
  size_t tasks() const { return count_.size(); }
  size_t agents() const { return agents_; }
  bool sampled(TaskId v, AgentId a) const { return count_[v][a] > 0; }
  double mean(TaskId v, AgentId a) const { return sum_[v][a] / static_cast<double>(count_[v][a]); }
  // Task v's estimated ranking over its sampled agents, as ranks (1 = best; equal means
  // tie) indexed by agent; 0 for an agent not sampled on v.
  std::vector<uint32_t> Ranks(TaskId v) const;
  // One vote per task of `tasks` (its estimated ranking; tasks with fewer than two sampled
  // agents give none).
  voting::BatchTally Tally(absl::Span<const TaskId> tasks) const;
  // Every task, in order.
  std::vector<TaskId> AllTasks() const;

 private:
  size_t agents_;
  std::vector<std::vector<double>> sum_;     // [task][agent]
  std::vector<std::vector<int64_t>> count_;  // [task][agent]
};

}  // namespace ratings::active
