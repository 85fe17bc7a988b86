#include "ratings/active/task_means.h"

#include <numeric>

namespace ratings::active {

TaskMeans::TaskMeans(size_t tasks, size_t agents)
    : agents_(agents),
      sum_(tasks, std::vector<double>(agents, 0.0)),
      count_(tasks, std::vector<int64_t>(agents, 0)) {}

void TaskMeans::Add(const Sample& s) {
  sum_[s.task][s.a] += s.score_a;
  sum_[s.task][s.b] += s.score_b;
  ++count_[s.task][s.a];
  ++count_[s.task][s.b];
}

std::vector<uint32_t> TaskMeans::Ranks(TaskId v) const {
  std::vector<uint32_t> ranks(agents_, 0);
  for (AgentId a = 0; a < agents_; ++a) {
    if (!sampled(v, a)) continue;
    ranks[a] = 1;
    for (AgentId b = 0; b < agents_; ++b) {
      if (sampled(v, b) && mean(v, b) > mean(v, a)) ++ranks[a];
    }
  }
  return ranks;
}

voting::BatchTally TaskMeans::Tally(absl::Span<const TaskId> tasks) const {
  voting::BatchTally tally(agents_);
  std::vector<AgentId> agents;
  std::vector<uint32_t> ranks;
  for (TaskId v : tasks) {
    const std::vector<uint32_t> all = Ranks(v);
    agents.clear();
    ranks.clear();
    for (AgentId a = 0; a < agents_; ++a) {
      if (all[a] == 0) continue;
      agents.push_back(a);
      ranks.push_back(all[a]);
    }
    if (agents.size() >= 2) tally.Add({agents, ranks, 1.0});
  }
  return tally;
}

std::vector<TaskId> TaskMeans::AllTasks() const {
  std::vector<TaskId> all(tasks());
  std::iota(all.begin(), all.end(), TaskId{0});
  return all;
}

}  // namespace ratings::active
