#include "ratings/voting/ranked_pairs.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ratings::voting {
namespace {

// Rows of bits: row a has bit b set iff b is reachable from a.
class Reachability {
 public:
  explicit Reachability(size_t n) : words_((n + 63) / 64), bits_(n * words_, 0) {}
  bool Get(size_t a, size_t b) const { return (bits_[a * words_ + b / 64] >> (b % 64)) & 1u; }
  // Adds edge a -> b: every x reaching a (and a) now reaches b and all b reaches.
  void AddEdge(size_t a, size_t b, size_t n) {
    for (size_t x = 0; x < n; ++x) {
      if (x != a && !Get(x, a)) continue;
      uint64_t* row = &bits_[x * words_];
      const uint64_t* from = &bits_[b * words_];
      for (size_t w = 0; w < words_; ++w) row[w] |= from[w];
      row[b / 64] |= uint64_t{1} << (b % 64);
    }
  }

 private:
  size_t words_;
  std::vector<uint64_t> bits_;
};

struct Edge {
  AgentId from = 0;
  AgentId to = 0;
  double margin = 0.0;
};

}  // namespace

SocialOrder RankedPairs(const Eigen::MatrixXd& margins, Priority priority) {
  const size_t m = static_cast<size_t>(margins.rows());
  std::vector<Edge> pairs;
  for (AgentId a = 0; a < m; ++a) {
    for (AgentId b = 0; b < m; ++b) {
      if (margins(a, b) > 0.0) pairs.push_back({a, b, margins(a, b)});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [&](const Edge& x, const Edge& y) {
    if (x.margin != y.margin) return x.margin > y.margin;
    if (x.from != y.from) return priority[x.from] < priority[y.from];
    return priority[x.to] < priority[y.to];
  });
  Reachability reach(m);
  std::vector<Edge> locked;
  std::vector<int> indegree(m, 0);
  for (const Edge& e : pairs) {
    if (reach.Get(e.to, e.from)) continue;  // would close a cycle
    reach.AddEdge(e.from, e.to, m);
    locked.push_back(e);
    ++indegree[e.to];
  }
  // Take sources one at a time (first by priority). A taken source is never reachable
  // from later ones, so its score can use the full locked graph.
  std::vector<std::vector<size_t>> out_edges(m);
  for (size_t i = 0; i < locked.size(); ++i) out_edges[locked[i].from].push_back(i);
  SocialOrder out;
  out.score.assign(m, 0.0);
  std::vector<bool> taken(m, false);
  for (size_t step = 0; step < m; ++step) {
    AgentId source = static_cast<AgentId>(m);
    for (AgentId a = 0; a < m; ++a) {
      if (!taken[a] && indegree[a] == 0 && (source == m || priority[a] < priority[source])) {
        source = a;
      }
    }
    taken[source] = true;
    out.order.push_back(source);
    for (const Edge& e : locked) {
      if (e.from == source || reach.Get(source, e.from)) out.score[source] += e.margin;
    }
    for (size_t i : out_edges[source]) --indegree[locked[i].to];
  }
  return out;
}

}  // namespace ratings::voting
