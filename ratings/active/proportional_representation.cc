// PROPORTIONALREPRESENTATION ([AE] §4.2): a mean model whose task selection favours an
// evaluation set E of "most representative" tasks, chosen greedily on the estimated task
// rankings after Greedy Metritocracy (Procaccia et al.), recomputed every round; the
// ranking is ranked pairs over the estimated rankings of E (docs/ACTIVE.md §3).
#include <memory>
#include <vector>

#include "ratings/active/evaluators.h"
#include "ratings/active/selection.h"
#include "ratings/active/tally_rule.h"
#include "ratings/active/task_means.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {

std::vector<TaskId> GreedyRepresentativeTasks(const std::vector<std::vector<uint32_t>>& ranks,
                                              size_t agents, int64_t g) {
  const size_t tasks = ranks.size();
  // need[a][r-1]: how many chosen tasks must rank a in their top r.
  std::vector<std::vector<int64_t>> need(agents, std::vector<int64_t>(agents, 0));
  for (AgentId a = 0; a < agents; ++a) {
    for (size_t r = 1; r <= agents; ++r) {
      int64_t in_top = 0;
      for (size_t v = 0; v < tasks; ++v) in_top += ranks[v][a] != 0 && ranks[v][a] <= r ? 1 : 0;
      need[a][r - 1] = in_top / g;
    }
  }
  std::vector<TaskId> chosen;
  std::vector<bool> taken(tasks, false);
  while (true) {
    size_t best = tasks;
    int64_t best_cover = 0;
    for (size_t v = 0; v < tasks; ++v) {
      if (taken[v]) continue;
      int64_t cover = 0;
      for (AgentId a = 0; a < agents; ++a) {
        if (ranks[v][a] == 0) continue;
        for (size_t r = ranks[v][a]; r <= agents; ++r) cover += need[a][r - 1] > 0 ? 1 : 0;
      }
      if (cover > best_cover) {  // ties go to the lower task id
        best = v;
        best_cover = cover;
      }
    }
    if (best == tasks) break;  // no deficit left that a task could cover
    taken[best] = true;
    chosen.push_back(static_cast<TaskId>(best));
    for (AgentId a = 0; a < agents; ++a) {
      if (ranks[best][a] == 0) continue;
      for (size_t r = ranks[best][a]; r <= agents; ++r) {
        if (need[a][r - 1] > 0) --need[a][r - 1];
      }
    }
  }
  return chosen;
}

namespace {

class ProportionalRepresentation final : public RefittingEvaluator {
 public:
  ProportionalRepresentation(size_t tasks, size_t agents, const AlgorithmOptions& o)
      : RefittingEvaluator(agents),
        burn_in_enabled_(o.burn_in),
        exploration_(o.exploration),
        g_(o.prop_rep_g),
        burn_in_(tasks, agents),
        means_(tasks, agents) {}

  Query Choose(int64_t round, std::mt19937_64& rng) override {
    if (burn_in_enabled_ && burn_in_.Active(round)) return burn_in_.Next(round, rng);
    Query q = UniformQuery(means_.tasks(), means_.agents(), rng);
    // With probability 1 - exploration a task of E, else any task.
    if (!chosen_.empty() && Uniform01(rng) >= exploration_) {
      q.task = chosen_[UniformIndex(rng, chosen_.size())];
    }
    return q;
  }

  void Observe(const Sample& s) override {
    means_.Add(s);
    MarkStale();
  }

  // E is recomputed here, once per round, and used by the next Choose().
  absl::Status Refit(std::vector<AgentId>& ranking) override {
    std::vector<std::vector<uint32_t>> ranks(means_.tasks());
    for (TaskId v = 0; v < means_.tasks(); ++v) ranks[v] = means_.Ranks(v);
    chosen_ = GreedyRepresentativeTasks(ranks, means_.agents(), g_);
    const std::vector<TaskId> votes = chosen_.empty() ? means_.AllTasks() : chosen_;
    return RankByTallyRule(TallyRule::kRankedPairs, means_.Tally(votes), ranking, nullptr);
  }

 private:
  bool burn_in_enabled_;
  double exploration_;
  int64_t g_;
  BurnIn burn_in_;
  TaskMeans means_;
  std::vector<TaskId> chosen_;  // E, recomputed every round
};

}  // namespace

std::unique_ptr<Evaluator> MakeProportionalRepresentation(size_t tasks, size_t agents,
                                                          const AlgorithmOptions& o) {
  return std::make_unique<ProportionalRepresentation>(tasks, agents, o);
}

}  // namespace ratings::active
