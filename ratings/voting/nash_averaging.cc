#include "ratings/voting/nash_averaging.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ratings/status_macros.h"
#include "ratings/voting/max_entropy_strategy.h"
#include "ratings/voting/strategy_lp.h"

namespace ratings::voting {
namespace {

enum class Standing : int8_t { kOpen, kEssential, kInessential };

// One player of the game: its payoff (own strategies × opponent's, scaled to [-1, 1]), its
// LP, the optimal strategies found so far and what they tell about each strategy.
struct Player {
  Player(Eigen::MatrixXd payoff, std::string what)
      : a(std::move(payoff)),
        lp(a, std::move(what)),
        standing(static_cast<size_t>(a.rows()), Standing::kOpen),
        sum(Eigen::VectorXd::Zero(a.rows())) {}

  Eigen::VectorXd Interior() const { return sum / solutions; }
  std::vector<bool> Essential() const {
    std::vector<bool> out(standing.size());
    for (size_t i = 0; i < standing.size(); ++i) out[i] = standing[i] == Standing::kEssential;
    return out;
  }

  Eigen::MatrixXd a;
  StrategyLp lp;
  std::vector<Standing> standing;
  Eigen::VectorXd sum;
  int solutions = 0;
};

// An optimal strategy x of `self`: its support is essential, and every opponent strategy
// against which x guarantees more than the value is in no optimal strategy of the opponent
// (complementary slackness). Essential is never overwritten.
void Record(const Eigen::VectorXd& x, Player& self, Player& opponent, double tolerance) {
  self.sum += x;
  ++self.solutions;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (x(i) > tolerance) self.standing[static_cast<size_t>(i)] = Standing::kEssential;
  }
  const Eigen::VectorXd slack =
      self.a.transpose() * x - Eigen::VectorXd::Constant(self.a.cols(), self.lp.value());
  for (Eigen::Index j = 0; j < slack.size(); ++j) {
    Standing& s = opponent.standing[static_cast<size_t>(j)];
    if (slack(j) > tolerance && s == Standing::kOpen) s = Standing::kInessential;
  }
}

// Settles every open strategy of `self`: an LP maximising its probability over the optimal
// strategies; if that is 0, it is inessential, and the opponent's LP maximising the
// opponent's payoff against it gives the opponent an optimal strategy with slack there
// (strict complementarity), which the opponent's relative-interior point needs.
absl::Status Settle(Player& self, Player& opponent, double tolerance) {
  const Eigen::Index m = self.a.rows();
  for (Eigen::Index i = 0; i < m; ++i) {
    if (self.standing[static_cast<size_t>(i)] != Standing::kOpen) continue;
    ASSIGN_OR_RETURN(const Eigen::VectorXd x, self.lp.Maximise(Eigen::VectorXd::Unit(m, i)));
    Record(x, self, opponent, tolerance);
    if (x(i) > tolerance) continue;
    self.standing[static_cast<size_t>(i)] = Standing::kInessential;
    ASSIGN_OR_RETURN(const Eigen::VectorXd y, opponent.lp.Maximise(opponent.a.col(i)));
    Record(y, opponent, self, tolerance);
  }
  return absl::OkStatus();
}

absl::Status Validate(const Eigen::MatrixXd& scores, const NashAveragingOptions& options) {
  if (scores.rows() == 0 || scores.cols() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Nash averaging needs at least one task and one agent; the scores are ",
                     scores.rows(), " tasks x ", scores.cols(), " agents"));
  }
  for (const auto& [count, what] : {std::pair{scores.rows(), "tasks"}, {scores.cols(), "agents"}}) {
    if (static_cast<size_t>(count) > options.max_size) {
      return absl::InvalidArgumentError(absl::StrCat(count, " ", what, " is above the limit of ",
                                                     options.max_size,
                                                     " (max_size) for Nash averaging"));
    }
  }
  for (Eigen::Index v = 0; v < scores.rows(); ++v) {
    for (Eigen::Index a = 0; a < scores.cols(); ++a) {
      if (!std::isfinite(scores(v, a))) {
        return absl::InvalidArgumentError(absl::StrCat("the score of agent ", a, " on task ", v,
                                                       " is ", scores(v, a), ", not finite"));
      }
    }
  }
  if (!(options.tolerance > 0.0 && options.tolerance < 1e-3)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Nash averaging tolerance ", options.tolerance, " is not in (0, 1e-3)"));
  }
  return absl::OkStatus();
}

// Both strategies from the scores scaled to [0, 1]: (agent strategy, task strategy).
absl::StatusOr<std::pair<Eigen::VectorXd, Eigen::VectorXd>> MaxEntropyEquilibrium(
    const Eigen::MatrixXd& scaled, double tolerance) {
  Player agents(scaled.transpose(), "the agent player's LP of Nash averaging");
  Player tasks(-scaled, "the task player's LP of Nash averaging");
  for (auto [self, opponent] : {std::pair{&agents, &tasks}, {&tasks, &agents}}) {
    ASSIGN_OR_RETURN(const Eigen::VectorXd first, self->lp.SolveValue());
    self->lp.FixValue(self->lp.value());
    Record(first, *self, *opponent, tolerance);
  }
  RETURN_IF_ERROR(Settle(agents, tasks, tolerance));
  RETURN_IF_ERROR(Settle(tasks, agents, tolerance));
  const std::vector<bool> agents_essential = agents.Essential();
  const std::vector<bool> tasks_essential = tasks.Essential();
  return std::pair{MaximiseEntropy(agents.a, agents.lp.value(), agents.Interior(), agents_essential,
                                   tasks_essential)
                       .strategy,
                   MaximiseEntropy(tasks.a, tasks.lp.value(), tasks.Interior(), tasks_essential,
                                   agents_essential)
                       .strategy};
}

std::vector<double> ToVector(const Eigen::VectorXd& x) {
  return std::vector<double>(x.data(), x.data() + x.size());
}

}  // namespace

absl::StatusOr<NashAveraging> SolveNashAveraging(const Eigen::MatrixXd& scores,
                                                 const NashAveragingOptions& options) {
  RETURN_IF_ERROR(Validate(scores, options));
  const Eigen::Index tasks = scores.rows(), agents = scores.cols();
  const double low = scores.minCoeff();
  const double range = scores.maxCoeff() - low;
  Eigen::VectorXd x, y;
  if (range == 0.0) {  // every pair of strategies is an equilibrium: uniform has max entropy
    x = Eigen::VectorXd::Constant(agents, 1.0 / static_cast<double>(agents));
    y = Eigen::VectorXd::Constant(tasks, 1.0 / static_cast<double>(tasks));
  } else {
    const Eigen::MatrixXd scaled = (scores.array() - low) / range;
    ASSIGN_OR_RETURN(std::tie(x, y), MaxEntropyEquilibrium(scaled, options.tolerance));
  }
  const Eigen::VectorXd theta = scores.transpose() * y;  // per agent, against σ2
  const Eigen::VectorXd guaranteed = scores * x;         // per task, of σ1
  NashAveraging out;
  out.agent_strategy = ToVector(x);
  out.task_strategy = ToVector(y);
  out.value = y.dot(guaranteed);
  out.exploitability =
      std::max({0.0, theta.maxCoeff() - out.value, out.value - guaranteed.minCoeff()});
  out.rating = ToVector(theta);
  for (Eigen::Index a = 0; a < agents; ++a) {
    if (x(a) > 0.0) out.rating[static_cast<size_t>(a)] = out.value;
  }
  return out;
}

}  // namespace ratings::voting
