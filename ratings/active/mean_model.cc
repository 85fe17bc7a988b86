// The mean-model algorithms of [AE] §4.2: MEANMODELCOPELAND, MEANMODELRANKEDPAIRS and
// MEANMODELMAXLOT. The running means s̄_{v,a} estimate each task's ranking; a voting rule
// over the n estimated rankings ranks the agents (voting-as-evaluation on the estimates).
#include <memory>
#include <vector>

#include "ratings/active/evaluators.h"
#include "ratings/active/selection.h"
#include "ratings/active/tally_rule.h"
#include "ratings/active/task_means.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

class MeanModel final : public RefittingEvaluator {
 public:
  MeanModel(TallyRule rule, size_t tasks, size_t agents, bool burn_in)
      : RefittingEvaluator(agents),
        rule_(rule),
        burn_in_enabled_(burn_in),
        burn_in_(tasks, agents),
        means_(tasks, agents),
        all_tasks_(means_.AllTasks()) {}

  Query Choose(int64_t round, std::mt19937_64& rng) override {
    if (burn_in_enabled_ && burn_in_.Active(round)) return burn_in_.Next(round, rng);
    return UniformQuery(means_.tasks(), means_.agents(), rng);
  }

  void Observe(const Sample& s) override {
    means_.Add(s);
    MarkStale();
  }

  absl::Status Refit(std::vector<AgentId>& ranking) override {
    return RankByTallyRule(rule_, means_.Tally(all_tasks_), ranking, nullptr);
  }

 private:
  TallyRule rule_;
  bool burn_in_enabled_;
  BurnIn burn_in_;
  TaskMeans means_;
  std::vector<TaskId> all_tasks_;
};

}  // namespace

std::unique_ptr<Evaluator> MakeMeanModel(TallyRule rule, size_t tasks, size_t agents,
                                         const AlgorithmOptions& o) {
  return std::make_unique<MeanModel>(rule, tasks, agents, o.burn_in);
}

}  // namespace ratings::active
