#include "ratings/voting/iterative_lotteries.h"

#include <algorithm>

namespace ratings::voting {

absl::StatusOr<ImlOutcome> IterativeMaximalLotteries(const Eigen::MatrixXd& margins,
                                                     const ExactLotteryOptions& options) {
  const auto m = static_cast<size_t>(margins.rows());
  ImlOutcome out;
  std::vector<AgentId> alive(m);
  for (size_t a = 0; a < m; ++a) alive[a] = static_cast<AgentId>(a);
  while (!alive.empty()) {
    const auto n = static_cast<Eigen::Index>(alive.size());
    Eigen::MatrixXd sub(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < n; ++j) sub(i, j) = margins(alive[i], alive[j]);
    }
    absl::StatusOr<ExactLottery> lottery = SolveMaximalLottery(sub, options);
    if (!lottery.ok()) return lottery.status();
    out.exploitability = std::max(out.exploitability, lottery->exploitability);
    std::vector<std::pair<AgentId, double>> level;
    std::vector<AgentId> rest;
    for (size_t i = 0; i < alive.size(); ++i) {
      if (lottery->lottery[i] > 0.0) {
        level.emplace_back(alive[i], lottery->lottery[i]);
      } else {
        rest.push_back(alive[i]);
      }
    }
    std::stable_sort(level.begin(), level.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    out.levels.push_back(std::move(level));
    alive = std::move(rest);
  }
  out.score.assign(m, 0.0);
  const size_t levels = out.levels.size();
  for (size_t t = 0; t < levels; ++t) {
    for (const auto& [agent, probability] : out.levels[t]) {
      out.score[agent] = static_cast<double>(levels - 1 - t) + probability;
    }
  }
  return out;
}

}  // namespace ratings::voting
