// ONLINEMAXIMALLOTTERIES and ONLINENASHAVERAGING ([AE] §4.2.2, App. A): the game is
// solved online by two regret-matching bandits in self-play; the pairs (and, for Nash
// averaging, the tasks) are their sampling strategies, and the ranking sorts the
// agents' expected utility against the opponent's average strategy.
#include <memory>
#include <vector>

#include "ratings/active/evaluators.h"
#include "ratings/active/regret_matching_game.h"
#include "ratings/active/selection.h"
#include "ratings/seeded_draws.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

// Agent vs agent on the margin game: u = +1 if the row agent scores higher, -1 if lower,
// 0 on a tie (the margin game counts a tie for neither).
class OnlineMaximalLotteries final : public Evaluator {
 public:
  OnlineMaximalLotteries(size_t tasks, size_t agents, double exploration)
      : tasks_(tasks), game_(agents, agents, exploration) {}
  Query Choose(int64_t, std::mt19937_64& rng) override {
    const TaskId v = static_cast<TaskId>(UniformIndex(rng, tasks_));
    const AgentId a = static_cast<AgentId>(DrawWeighted(game_.RowSampling(), rng));
    // The match needs two agents: the column player's draw is redrawn until it differs.
    std::vector<double> column = game_.ColumnSampling();
    column[a] = 0;
    return {v, a, static_cast<AgentId>(DrawWeighted(column, rng))};
  }
  void Observe(const Sample& s) override {
    const double u = s.score_a > s.score_b ? 1.0 : (s.score_a < s.score_b ? -1.0 : 0.0);
    game_.Observe(s.a, s.b, u);
  }
  std::vector<AgentId> Ranking() override {
    const std::vector<double> rating = game_.RowRatings();
    return voting::OrderByScore(rating, voting::IdentityPriority(rating.size()));
  }

 private:
  size_t tasks_;
  RegretMatchingGame game_;
};

// Agent vs task: the agent player receives the agent's score on the task (divided by 100,
// the score range of the generators, so utilities stay near [0, 1]). The match's second
// agent is a second draw of the agent player's sampling strategy, distinct from the first;
// both samples are fed to the bandits.
class OnlineNashAveraging final : public Evaluator {
 public:
  OnlineNashAveraging(size_t tasks, size_t agents, double exploration)
      : game_(agents, tasks, exploration) {}
  Query Choose(int64_t, std::mt19937_64& rng) override {
    const TaskId v = static_cast<TaskId>(DrawWeighted(game_.ColumnSampling(), rng));
    const auto [a, b] = DistinctPairFrom(game_.RowSampling(), rng);
    return {v, a, b};
  }
  void Observe(const Sample& s) override {
    game_.Observe(s.a, s.task, s.score_a / 100.0);
    game_.Observe(s.b, s.task, s.score_b / 100.0);
  }
  std::vector<AgentId> Ranking() override {
    const std::vector<double> rating = game_.RowRatings();
    return voting::OrderByScore(rating, voting::IdentityPriority(rating.size()));
  }

 private:
  RegretMatchingGame game_;
};

}  // namespace

std::unique_ptr<Evaluator> MakeOnlineMaximalLotteries(size_t tasks, size_t agents,
                                                      const AlgorithmOptions& o) {
  return std::make_unique<OnlineMaximalLotteries>(tasks, agents, o.exploration);
}

std::unique_ptr<Evaluator> MakeOnlineNashAveraging(size_t tasks, size_t agents,
                                                   const AlgorithmOptions& o) {
  return std::make_unique<OnlineNashAveraging>(tasks, agents, o.exploration);
}

}  // namespace ratings::active
