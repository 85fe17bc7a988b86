#include "ratings/voting/kemeny.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ratings::voting {

namespace {

// The strongly connected components of the weak majority graph (a -> b iff
// N(a, b) >= N(b, a)), in the order of its condensation (Kosaraju, iterative; O(n^2)).
// Every pair is joined one way or both, so the condensation is a total order, and every
// agent of a component beats every agent of a later one by a strict majority.
std::vector<std::vector<AgentId>> MajorityComponents(const Eigen::MatrixXd& n) {
  const auto m = static_cast<size_t>(n.rows());
  auto edge = [&](size_t a, size_t b) {
    const auto i = static_cast<Eigen::Index>(a), j = static_cast<Eigen::Index>(b);
    return a != b && n(i, j) >= n(j, i);
  };
  std::vector<char> seen(m, 0);
  std::vector<size_t> next(m, 0), stack;
  // Depth-first search from s (unseen) over the unseen agents along arc(v, w) (v -> w);
  // finish(v) as each agent's search ends.
  auto search = [&](size_t s, auto arc, auto finish) {
    seen[s] = 1;
    stack.push_back(s);
    while (!stack.empty()) {
      const size_t v = stack.back();
      if (next[v] < m) {
        const size_t w = next[v]++;
        if (!seen[w] && arc(v, w)) {
          seen[w] = 1;
          stack.push_back(w);
        }
      } else {
        finish(v);
        stack.pop_back();
      }
    }
  };
  std::vector<size_t> finished;
  for (size_t s = 0; s < m; ++s) {
    if (seen[s]) continue;
    search(s, edge, [&](size_t v) { finished.push_back(v); });
  }
  std::fill(seen.begin(), seen.end(), 0);
  std::fill(next.begin(), next.end(), 0);
  std::vector<std::vector<AgentId>> components;
  for (size_t i = m; i-- > 0;) {
    const size_t s = finished[i];
    if (seen[s]) continue;
    components.emplace_back();
    search(
        s, [&](size_t v, size_t w) { return edge(w, v); },  // the reversed graph
        [&](size_t v) { components.back().push_back(static_cast<AgentId>(v)); });
  }
  return components;
}

// Whether every sum of entries of `nn` (k x k) is exact in double: all entries are multiples
// of one power of two 2^g and their total is below 2^(53 + g) (integer weights totalling
// less than 2^53, for instance).
template <typename Entry>
bool SumsAreExact(size_t k, const Entry& nn, double total) {
  int g = std::numeric_limits<int>::max();
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      const double x = nn(i, j);
      if (x == 0.0) continue;
      int e = 0;
      const double mantissa = std::frexp(std::abs(x), &e);  // x = mantissa 2^e, in [1/2, 1)
      const auto bits = static_cast<uint64_t>(std::ldexp(mantissa, 53));
      g = std::min(g, e - 53 + __builtin_ctzll(bits));
    }
  }
  return g == std::numeric_limits<int>::max() || total < std::ldexp(1.0, 53 + g);
}

// The optimal order of `agents` (< 32 of them) among themselves, first by priority
// position by position among the optimal ones.
std::vector<AgentId> SolveComponent(const Eigen::MatrixXd& n, const std::vector<AgentId>& agents,
                                    Priority priority) {
  const size_t k = agents.size();
  auto nn = [&](size_t i, size_t j) { return n(agents[i], agents[j]); };
  // g[S]: the best KEMENYVALUE of ordering the agents of S among themselves.
  const uint32_t full = static_cast<uint32_t>((uint64_t{1} << k) - 1);
  std::vector<double> g(static_cast<size_t>(full) + 1, 0.0);
  // Value of putting i first in S: sum_{j in S, j != i} N(i, j).
  auto head_value = [&](uint32_t set, size_t i) {
    double v = 0.0;
    for (uint32_t rest = set & ~(1u << i); rest != 0; rest &= rest - 1) {
      v += nn(i, static_cast<size_t>(__builtin_ctz(rest)));
    }
    return v;
  };
  for (uint32_t set = 1; set != 0 && set <= full; ++set) {
    double best = -1.0;
    for (uint32_t s = set; s != 0; s &= s - 1) {
      const size_t i = static_cast<size_t>(__builtin_ctz(s));
      best = std::max(best, head_value(set, i) + g[set & ~(1u << i)]);
    }
    g[set] = best;
    if (set == full) break;
  }
  double total = 0.0;
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) total += std::abs(nn(i, j));
  }
  // Exact values compare exactly (docs/MODELS.md §6, "Kemeny"): a relative tolerance would
  // accept an order worse by a whole vote once the counts pass 1e9; otherwise orders within
  // 1e-9 relative of the optimum tie, the summation order's rounding being below that.
  const double tolerance = SumsAreExact(k, nn, total) ? 0.0 : 1e-9 * (total + 1.0);
  std::vector<AgentId> order;
  uint32_t set = full;
  while (set != 0) {
    size_t chosen = k;
    for (uint32_t s = set; s != 0; s &= s - 1) {
      const size_t i = static_cast<size_t>(__builtin_ctz(s));
      if (head_value(set, i) + g[set & ~(1u << i)] >= g[set] - tolerance &&
          (chosen == k || priority[agents[i]] < priority[agents[chosen]])) {
        chosen = i;
      }
    }
    order.push_back(agents[chosen]);
    set &= ~(1u << chosen);
  }
  return order;
}

}  // namespace

absl::StatusOr<KemenyOutcome> Kemeny(const Eigen::MatrixXd& n, const KemenyOptions& options,
                                     Priority priority) {
  const auto m = static_cast<size_t>(n.rows());
  if (options.max_agents > kKemenyHardMaxAgents) {
    return absl::InvalidArgumentError(absl::StrCat("max_agents: ", options.max_agents,
                                                   " is above the exact solver's limit of ",
                                                   kKemenyHardMaxAgents));
  }
  const std::vector<std::vector<AgentId>> components = MajorityComponents(n);
  size_t largest = 0;
  for (const auto& c : components) largest = std::max(largest, c.size());
  if (largest > options.max_agents) {
    return absl::InvalidArgumentError(absl::StrCat(
        "kemeny: ", largest, " agents is above the exact solver's limit of ", options.max_agents,
        " (max_agents) for one majority cycle (", m,
        " agents in all; the solver is O(2^k k^2) in the largest set of agents not separated "
        "by strict majorities); use schulze, ranked-pairs or ml-exact"));
  }
  KemenyOutcome out;
  for (const auto& c : components) {
    for (AgentId a : SolveComponent(n, c, priority)) out.order.order.push_back(a);
  }
  out.order.score.assign(m, 0.0);
  const std::vector<AgentId>& order = out.order.order;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = i + 1; j < m; ++j) out.order.score[order[i]] += n(order[i], order[j]);
    out.value += out.order.score[order[i]];
  }
  return out;
}

}  // namespace ratings::voting
