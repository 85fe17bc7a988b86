// The mean-model algorithms of [AE] §4.2: MEANMODELCOPELAND, MEANMODELRANKEDPAIRS and
// MEANMODELMAXLOT. The running means s̄_{v,a} estimate each task's ranking; a voting rule
// over the n estimated rankings ranks the agents (voting-as-evaluation on the estimates).
#include <memory>
#include <vector>

#include "ratings/active/evaluators.h"
#include "ratings/active/selection.h"
#include "ratings/active/tally_rule.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

class MeanModel final : public Evaluator {
 public:
  MeanModel(TallyRule rule, size_t tasks, size_t agents, bool burn_in)
      : rule_(rule),
        tasks_(tasks),
        agents_(agents),
        burn_in_enabled_(burn_in),
        burn_in_(tasks, agents),
        sum_(tasks, std::vector<double>(agents, 0.0)),
        count_(tasks, std::vector<int64_t>(agents, 0)),
        priority_(voting::IdentityPriority(agents)),
        ranking_(priority_) {}  // AgentId is uint32_t

  Query Choose(int64_t round, std::mt19937_64& rng) override {
    if (burn_in_enabled_ && burn_in_.Active(round)) return burn_in_.Next(round, rng);
    return UniformQuery(tasks_, agents_, rng);
  }

  void Observe(const Sample& s) override {
    sum_[s.task][s.a] += s.score_a;
    sum_[s.task][s.b] += s.score_b;
    ++count_[s.task][s.a];
    ++count_[s.task][s.b];
    stale_ = true;
  }

  std::vector<AgentId> Ranking() override {
    if (stale_ && status_.ok()) status_ = Refit();
    stale_ = false;
    return ranking_;
  }

  absl::Status status() const override { return status_; }

 private:
  // The estimated ranking of each task over its sampled agents (equal means tie), as
  // one vote each.
  voting::BatchTally EstimatedTally() const {
    voting::BatchTally tally(agents_);
    std::vector<AgentId> agents;
    std::vector<double> means;
    std::vector<uint32_t> ranks;
    for (size_t v = 0; v < tasks_; ++v) {
      agents.clear();
      means.clear();
      for (AgentId a = 0; a < agents_; ++a) {
        if (count_[v][a] == 0) continue;
        agents.push_back(a);
        means.push_back(sum_[v][a] / static_cast<double>(count_[v][a]));
      }
      if (agents.size() < 2) continue;
      ranks.assign(agents.size(), 1);
      for (size_t i = 0; i < agents.size(); ++i) {
        for (double other : means) ranks[i] += other > means[i] ? 1 : 0;
      }
      tally.Add({agents, ranks, 1.0});
    }
    return tally;
  }

  absl::Status Refit() { return RankByTallyRule(rule_, EstimatedTally(), ranking_, nullptr); }

  TallyRule rule_;
  size_t tasks_;
  size_t agents_;
  bool burn_in_enabled_;
  BurnIn burn_in_;
  std::vector<std::vector<double>> sum_;     // [task][agent]
  std::vector<std::vector<int64_t>> count_;  // [task][agent]
  std::vector<uint32_t> priority_;
  std::vector<AgentId> ranking_;
  bool stale_ = false;
  absl::Status status_;
};

}  // namespace

std::unique_ptr<Evaluator> MakeMeanModel(TallyRule rule, size_t tasks, size_t agents,
                                         const AlgorithmOptions& o) {
  return std::make_unique<MeanModel>(rule, tasks, agents, o.burn_in);
}

}  // namespace ratings::active
