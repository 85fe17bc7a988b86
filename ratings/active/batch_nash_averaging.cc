// BATCHNASHAVERAGING ([AE] §4.2.1; Balduzzi et al. 2018): the agent-vs-task game of the
// running mean scores, solved each round for its maximum-entropy Nash equilibrium; tasks are
// drawn from the task player's strategy and pairs from the agent player's, both mixed with
// uniform exploration; agents rank by their expected score against the task strategy.
#include <memory>
#include <vector>

#include "Eigen/Core"
#include "ratings/active/evaluators.h"
#include "ratings/active/selection.h"
#include "ratings/active/task_means.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/nash_averaging.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

// The midpoint of the generators' score range: the mean assumed for a (task, agent) not
// sampled yet (only during the burn-in).
constexpr double kUnsampledMean = 50.0;

class BatchNashAveraging final : public RefittingEvaluator {
 public:
  BatchNashAveraging(size_t tasks, size_t agents, const AlgorithmOptions& o)
      : RefittingEvaluator(agents),
        burn_in_enabled_(o.burn_in),
        exploration_(o.exploration),
        burn_in_(tasks, agents),
        means_(tasks, agents),
        agent_strategy_(agents, 1.0 / static_cast<double>(agents)),
        task_strategy_(tasks, 1.0 / static_cast<double>(tasks)) {}

  Query Choose(int64_t round, std::mt19937_64& rng) override {
    if (burn_in_enabled_ && burn_in_.Active(round)) return burn_in_.Next(round, rng);
    const TaskId v =
        static_cast<TaskId>(DrawWeighted(MixUniform(task_strategy_, exploration_), rng));
    const auto [a, b] = DistinctPairFrom(MixUniform(agent_strategy_, exploration_), rng);
    return {v, a, b};
  }

  void Observe(const Sample& s) override {
    means_.Add(s);
    MarkStale();
  }

  absl::Status Refit(std::vector<AgentId>& ranking) override {
    Eigen::MatrixXd scores(means_.tasks(), means_.agents());
    for (TaskId v = 0; v < means_.tasks(); ++v) {
      for (AgentId a = 0; a < means_.agents(); ++a) {
        scores(v, a) = means_.sampled(v, a) ? means_.mean(v, a) : kUnsampledMean;
      }
    }
    absl::StatusOr<voting::NashAveraging> nash = voting::SolveNashAveraging(scores);
    if (!nash.ok()) return nash.status();
    agent_strategy_ = nash->agent_strategy;
    task_strategy_ = nash->task_strategy;
    ranking = voting::OrderByScore(nash->rating, voting::IdentityPriority(nash->rating.size()));
    return absl::OkStatus();
  }

 private:
  bool burn_in_enabled_;
  double exploration_;
  BurnIn burn_in_;
  TaskMeans means_;
  std::vector<double> agent_strategy_;
  std::vector<double> task_strategy_;
};

}  // namespace

std::unique_ptr<Evaluator> MakeBatchNashAveraging(size_t tasks, size_t agents,
                                                  const AlgorithmOptions& o) {
  return std::make_unique<BatchNashAveraging>(tasks, agents, o);
}

}  // namespace ratings::active
