#include "ratings/voting/kemeny.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ratings::voting {

absl::StatusOr<KemenyOutcome> Kemeny(const Eigen::MatrixXd& n, const KemenyOptions& options,
                                     Priority priority) {
  const size_t m = static_cast<size_t>(n.rows());
  if (options.max_agents > kKemenyHardMaxAgents) {
    return absl::InvalidArgumentError(absl::StrCat("max_agents: ", options.max_agents,
                                                   " is above the exact solver's limit of ",
                                                   kKemenyHardMaxAgents));
  }
  if (m > options.max_agents) {
    return absl::InvalidArgumentError(absl::StrCat(
        "kemeny: ", m, " agents is above the exact solver's limit of ", options.max_agents,
        " (max_agents; the dynamic program is O(2^n n^2)); use schulze, ranked-pairs or "
        "ml-exact for large sets"));
  }
  // g[S]: the best KEMENYVALUE of ordering the agents of S among themselves.
  const uint32_t full = m == 0 ? 0u : static_cast<uint32_t>((uint64_t{1} << m) - 1);
  std::vector<double> g(static_cast<size_t>(full) + 1, 0.0);
  // Value of putting a first in S: sum_{b in S, b != a} N(a, b).
  auto head_value = [&](uint32_t set, size_t a) {
    double v = 0.0;
    for (uint32_t rest = set & ~(1u << a); rest != 0; rest &= rest - 1) {
      v += n(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(__builtin_ctz(rest)));
    }
    return v;
  };
  for (uint32_t set = 1; set != 0 && set <= full; ++set) {
    double best = -1.0;
    for (uint32_t s = set; s != 0; s &= s - 1) {
      const size_t a = static_cast<size_t>(__builtin_ctz(s));
      const double v = head_value(set, a) + g[set & ~(1u << a)];
      if (v > best) best = v;
    }
    g[set] = best;
    if (set == full) break;
  }
  const double tolerance = 1e-9 * (1.0 + n.cwiseAbs().sum());
  KemenyOutcome out;
  out.value = m == 0 ? 0.0 : g[full];
  out.order.score.assign(m, 0.0);
  uint32_t set = full;
  while (set != 0) {
    // The first agent (by priority) that starts an optimal order of `set`.
    size_t chosen = m;
    double chosen_head = 0.0;
    for (uint32_t s = set; s != 0; s &= s - 1) {
      const size_t a = static_cast<size_t>(__builtin_ctz(s));
      const double head = head_value(set, a);
      if (head + g[set & ~(1u << a)] >= g[set] - tolerance &&
          (chosen == m || priority[a] < priority[chosen])) {
        chosen = a;
        chosen_head = head;
      }
    }
    out.order.order.push_back(static_cast<AgentId>(chosen));
    out.order.score[chosen] = chosen_head;
    set &= ~(1u << chosen);
  }
  return out;
}

}  // namespace ratings::voting
