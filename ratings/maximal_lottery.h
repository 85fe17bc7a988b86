// Online maximal lotteries by regret matching (docs/MODELS.md §4): keep the margin game of the
// pool and approximate its equilibrium by regret-matching self-play, reporting the
// average strategy. [VasE] "Maximal Lotteries" (p^T M q >= 0 for all q);
// [AE] §4.2.2 and App. A (regret matching, ratings as expected utility
// against the equilibrium).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ratings/pairwise_tally.h"
#include "ratings/result.h"

namespace ratings {

enum class RegretVariant {
  kRegretMatching,                // RM: cumulative regrets, uniform averaging (Hart & Mas-Colell)
  kRegretMatchingPlus,            // RM+: regrets floored at 0, linear averaging
  kPredictiveRegretMatchingPlus,  // PRM+: RM+ that plays against the last regret as a prediction
};

struct MaximalLotteryOptions {
  RegretVariant variant = RegretVariant::kPredictiveRegretMatchingPlus;
  // Target exploitability max_a (M p)(a) / max|M| of the reported lottery (docs/MODELS.md §4).
  // Solve() stops once it is reached. Default 1e-3 (the bound the printed lottery is held to).
  double target_exploitability = 1e-3;
  // Upper bound on the iterations of one Solve() call. Default 1,000,000.
  int64_t max_iterations = 1'000'000;
  // Iterations run after each result by the Pool (online mode; each is O(n^2)). 0 = the
  // owner calls Solve() when it reports (the daemon does so off its hot path). Default 0.
  int64_t iterations_per_result = 0;
  // After each Solve(), agents with a probability below this, or an expected utility
  // against the lottery below minus this (agents outside an exact maximal lottery's
  // support lose against it), are dropped and the rest renormalised; the pruned lottery
  // is reported if its own exploitability is at most max(target, the average's). An
  // approximate lottery otherwise spreads leftover mass over agents outside the support,
  // and ranking by that mass would be noise. 0 keeps the average strategy. Default 1e-3.
  double support_threshold = 1e-3;
  // Pools with more agents keep no margin matrix (it is dense): ML is refused for them
  // (docs/MODELS.md §4). Default 4096 agents (a 128 MiB matrix).
  size_t max_agents = 4096;
};

// Everything that determines a MaximalLottery's future (snapshots, docs/ARCHITECTURE.md §5):
// the margins' counts N (nonzero entries) and the regret-matching state. What Lottery()
// reports is derived from it at the next Solve().
struct MaximalLotteryState {
  struct Count {
    AgentId a = 0;
    AgentId b = 0;
    double n = 0.0;  // N(a, b)
  };
  bool refused = false;
  size_t size = 0;
  std::vector<Count> counts = {};
  std::vector<double> regrets = {};
  std::vector<double> last_regret = {};
  std::vector<double> average_sum = {};
  double average_weight = 0.0;
  int64_t iterations = 0;
  int64_t averaging_step = 0;
};

// What one Solve() call did.
struct SolveStats {
  int64_t iterations = 0;       // run by this call
  double exploitability = 0.0;  // of the average strategy on the current margins
  bool converged = false;       // exploitability <= target
};

// Not thread-safe; one owner. Memory: O(n^2) for the margins (N and a dense copy of M
// made when solving), O(n) for the solver state. Update() is O(k^2); Solve() is O(n^2)
// per iteration. Deterministic: no randomness; same updates and calls, same output.
class MaximalLottery {
 public:
  // InvalidArgument unless target > 0, 0 <= support_threshold < 1, max_iterations >= 1,
  // iterations_per_result >= 0, max_agents >= 2.
  static absl::StatusOr<MaximalLottery> Create(const MaximalLotteryOptions& options);

  // Grows to n agents. Past options.max_agents the margins are dropped and the model is
  // refused from then on (refused() turns true; the pool's other models carry on).
  void Resize(size_t n);
  // Adds the result to the margins. Precondition: every id < size(). O(k^2).
  void Update(const IndexedResult& result);
  // Runs regret matching on the current margins until the average strategy's
  // exploitability is at most the target or `max_iterations` iterations ran. Warm:
  // regrets and the average carry over between calls (the average is re-scored on the
  // current margins). FailedPrecondition if refused().
  absl::StatusOr<SolveStats> Solve(int64_t max_iterations);
  absl::StatusOr<SolveStats> Solve() { return Solve(options_.max_iterations); }

  // The three reports below are as of the last Solve() (results added since are not
  // reflected until the next one). Precondition: !refused().
  //
  // The reported lottery p: the average strategy (uniform before any iteration), pruned
  // as options.support_threshold says.
  std::vector<double> Lottery() const;
  // Expected utility against the lottery, (M p)(a) / max|M|, in [-1, 1]; 0 when M = 0.
  std::vector<double> Ratings() const;
  // max_a (M p)(a) / max|M| (the game value is 0); 0 when M = 0.
  double Exploitability() const;
  // Total iterations run so far.
  int64_t iterations() const { return iterations_; }

  const PairwiseTally& tally() const { return tally_; }
  bool refused() const { return refused_; }
  size_t size() const { return size_; }
  const MaximalLotteryOptions& options() const { return options_; }

  // O(n^2). Exported from a model with no solve in flight.
  MaximalLotteryState ExportState() const;
  // Replaces the state of a freshly created model. InvalidArgument if sizes disagree, an
  // index is out of range, or a value is not finite.
  absl::Status RestoreState(const MaximalLotteryState& state);

 private:
  explicit MaximalLottery(const MaximalLotteryOptions& options) : options_(options) {}

  // Rebuilds margins_ from the tally if results arrived since, and re-scores the average.
  void RefreshMargins();
  // The current strategy from the regrets (uniform if none is positive).
  void CurrentStrategy(Eigen::VectorXd& out) const;
  // The average strategy (uniform before any iteration).
  Eigen::VectorXd AverageStrategy() const;
  // Sets the reported lottery from the average strategy (pruning it if certified).
  void Report();

  MaximalLotteryOptions options_;
  size_t size_ = 0;
  bool refused_ = false;
  PairwiseTally tally_;

  // Solver state. Regrets and the average persist across Solve() calls (warm start).
  bool margins_stale_ = true;
  Eigen::MatrixXd margins_;      // M, built from tally_ by RefreshMargins()
  double scale_ = 0.0;           // max|M|
  Eigen::VectorXd regrets_;      // cumulative (RM) or floored (RM+, PRM+) regrets
  Eigen::VectorXd last_regret_;  // instantaneous regret of the last iteration (PRM+)
  Eigen::VectorXd average_sum_;  // sum_t w_t x_t
  Eigen::VectorXd payoff_sum_;   // sum_t w_t M x_t  ==  M average_sum_ on current M
  double average_weight_ = 0.0;  // sum_t w_t
  int64_t iterations_ = 0;
  int64_t averaging_step_ = 0;  // t of the weights w_t

  // What Lottery(), Ratings() and Exploitability() report, set by Report().
  Eigen::VectorXd reported_;         // p
  Eigen::VectorXd reported_payoff_;  // M p
};

}  // namespace ratings
