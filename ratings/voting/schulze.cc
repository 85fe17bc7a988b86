#include "ratings/voting/schulze.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace ratings::voting {

SchulzeOutcome Schulze(const Eigen::MatrixXd& n, Priority priority) {
  const Eigen::Index m = n.rows();
  SchulzeOutcome out;
  Eigen::MatrixXd& p = out.strongest_paths;
  p = Eigen::MatrixXd::Zero(m, m);
  for (Eigen::Index a = 0; a < m; ++a) {
    for (Eigen::Index b = 0; b < m; ++b) {
      if (a != b && n(a, b) > n(b, a)) p(a, b) = n(a, b);
    }
  }
  for (Eigen::Index k = 0; k < m; ++k) {
    for (Eigen::Index a = 0; a < m; ++a) {
      if (a == k || p(a, k) <= 0.0) continue;
      for (Eigen::Index b = 0; b < m; ++b) {
        if (b == a || b == k) continue;
        p(a, b) = std::max(p(a, b), std::min(p(a, k), p(k, b)));
      }
    }
  }
  std::vector<int> beats(static_cast<size_t>(m), 0);
  for (Eigen::Index a = 0; a < m; ++a) {
    for (Eigen::Index b = 0; b < m; ++b) beats[static_cast<size_t>(a)] += p(a, b) > p(b, a);
  }
  std::vector<AgentId>& order = out.order.order;
  order.resize(static_cast<size_t>(m));
  std::iota(order.begin(), order.end(), AgentId{0});
  std::sort(order.begin(), order.end(), [&](AgentId a, AgentId b) {
    if (beats[a] != beats[b]) return beats[a] > beats[b];
    return priority[a] < priority[b];
  });
  out.order.score.assign(static_cast<size_t>(m), 0.0);
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t j = i + 1; j < order.size(); ++j) {
      out.order.score[order[i]] += n(order[i], order[j]);
    }
  }
  return out;
}

}  // namespace ratings::voting
