#include "ratings/active/suggest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"

namespace ratings::active {
namespace {

uint64_t SplitMix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The index of the first prefix sum above u, or the last index with mass (u at or past the
// total by rounding). Never an index without mass.
size_t FirstAbove(const std::vector<double>& cumulative, const std::vector<double>& mass, double u,
                  size_t skip) {
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
  if (it != cumulative.end()) return static_cast<size_t>(it - cumulative.begin());
  for (size_t i = mass.size(); i > 0; --i) {
    if (mass[i - 1] > 0 && i - 1 != skip) return i - 1;
  }
  return 0;
}

}  // namespace

absl::string_view SuggestStrategyName(SuggestStrategy strategy) {
  switch (strategy) {
    case SuggestStrategy::kUniform:
      return "uniform";
    case SuggestStrategy::kUcb:
      return "ucb";
    case SuggestStrategy::kMl:
      return "ml";
  }
  return "?";
}

std::optional<SuggestStrategy> ParseSuggestStrategy(absl::string_view name) {
  for (SuggestStrategy s :
       {SuggestStrategy::kUniform, SuggestStrategy::kUcb, SuggestStrategy::kMl}) {
    if (name == SuggestStrategyName(s)) return s;
  }
  return std::nullopt;
}

absl::Status CheckExploration(double exploration) {
  if (!(exploration >= 0.0 && exploration <= 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("exploration must be a number in [0, 1] (got ", exploration, ")"));
  }
  return absl::OkStatus();
}

std::mt19937_64 SuggestRng(uint64_t sequence, uint64_t seed) {
  return std::mt19937_64(SplitMix64(SplitMix64(sequence) ^ seed));
}

std::vector<SuggestedPair> SuggestUniform(absl::Span<const std::string> agents, size_t n,
                                          std::mt19937_64& rng) {
  std::vector<SuggestedPair> out;
  const size_t m = agents.size();
  if (m < 2) return out;
  const double probability = 1.0 / (static_cast<double>(m) * static_cast<double>(m - 1));
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t a = UniformIndex(rng, m);
    size_t b = UniformIndex(rng, m - 1);
    if (b >= a) ++b;
    out.push_back({agents[a], agents[b], probability});
  }
  return out;
}

double UcbScore(double games, double points, double total_games) {
  if (!(games > 0)) return std::numeric_limits<double>::infinity();
  const double log_total = std::max(0.0, std::log(total_games));
  return points / games + kUcbC * std::sqrt(log_total / games);
}

std::vector<SuggestedPair> SuggestUcb(absl::Span<const std::string> agents,
                                      absl::Span<const double> games,
                                      absl::Span<const double> points, size_t n) {
  std::vector<SuggestedPair> out;
  const size_t m = agents.size();
  if (m < 2 || n == 0) return out;
  const double total = std::accumulate(games.begin(), games.end(), 0.0);
  std::vector<double> ucb(m);
  for (size_t a = 0; a < m; ++a) ucb[a] = UcbScore(games[a], points[a], total);
  // Only the first n + 1 listed agents can be in the top n pairs: a pair whose second
  // agent is listed at place j >= n + 1 (from 0) has the j - 1 >= n pairs of its first
  // agent with the agents listed before j ahead of it.
  const size_t listed = std::min(m, n + 1);
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(listed), order.end(),
                    [&](size_t x, size_t y) {
                      if (ucb[x] != ucb[y]) return ucb[x] > ucb[y];
                      return agents[x] < agents[y];
                    });
  // Merge the rows (i, i+1), (i, i+2), ... (each sorted) by a heap.
  struct Cell {
    double sum;
    size_t i, j;  // places in `order`, i < j
  };
  const auto after = [](const Cell& x, const Cell& y) {  // x ranks after y
    if (x.sum != y.sum) return x.sum < y.sum;
    if (x.i != y.i) return x.i > y.i;
    return x.j > y.j;
  };
  std::priority_queue<Cell, std::vector<Cell>, decltype(after)> heap(after);
  for (size_t i = 0; i + 1 < listed; ++i) {
    heap.push({ucb[order[i]] + ucb[order[i + 1]], i, i + 1});
  }
  out.reserve(std::min(n, listed * (listed - 1) / 2));
  while (out.size() < n && !heap.empty()) {
    const Cell top = heap.top();
    heap.pop();
    out.push_back({agents[order[top.i]], agents[order[top.j]], 1.0});
    if (top.j + 1 < listed) {
      heap.push({ucb[order[top.i]] + ucb[order[top.j + 1]], top.i, top.j + 1});
    }
  }
  return out;
}

std::vector<SuggestedPair> SuggestMl(absl::Span<const std::string> agents,
                                     absl::Span<const double> lottery, double exploration, size_t n,
                                     std::mt19937_64& rng) {
  std::vector<SuggestedPair> out;
  const size_t m = agents.size();
  if (m < 2) return out;
  double sum = 0.0;
  for (double p : lottery) sum += std::max(0.0, p);
  const bool uniform = !(sum > 0) || !std::isfinite(sum);
  std::vector<double> mixed(m);
  std::vector<double> cumulative(m);
  double running = 0.0;
  for (size_t i = 0; i < m; ++i) {
    const double sigma = uniform ? 1.0 / static_cast<double>(m) : std::max(0.0, lottery[i]) / sum;
    mixed[i] = exploration / static_cast<double>(m) + (1.0 - exploration) * sigma;
    running += mixed[i];
    cumulative[i] = running;
  }
  const double total = cumulative.back();
  out.reserve(n);
  for (size_t draw = 0; draw < n; ++draw) {
    const size_t a = FirstAbove(cumulative, mixed, Uniform01(rng) * total, m);
    const double rest = total - mixed[a];  // exactly 0 when no other agent has mass
    size_t b = 0;
    double probability = 0.0;
    if (rest > 0) {
      // b ~ σ' without a: u in [0, rest) mapped past a's interval.
      const double before = a > 0 ? cumulative[a - 1] : 0.0;
      double u = Uniform01(rng) * rest;
      if (u >= before) u += mixed[a];
      b = FirstAbove(cumulative, mixed, u, a);
      probability = mixed[a] * mixed[b] / rest;
    } else {
      b = UniformIndex(rng, m - 1);
      if (b >= a) ++b;
      probability = mixed[a] / static_cast<double>(m - 1);
    }
    out.push_back({agents[a], agents[b], probability});
  }
  return out;
}

}  // namespace ratings::active
