#include "ratings/active/selection.h"

#include <numeric>

#include "ratings/seeded_draws.h"

namespace ratings::active {

std::pair<AgentId, AgentId> UniformPair(size_t agents, std::mt19937_64& rng) {
  const AgentId a = static_cast<AgentId>(UniformIndex(rng, agents));
  AgentId b = static_cast<AgentId>(UniformIndex(rng, agents - 1));
  if (b >= a) ++b;
  return {a, b};
}

Query UniformQuery(size_t tasks, size_t agents, std::mt19937_64& rng) {
  const TaskId v = static_cast<TaskId>(UniformIndex(rng, tasks));
  const auto [a, b] = UniformPair(agents, rng);
  return {v, a, b};
}

std::vector<double> MixUniform(absl::Span<const double> sigma, double epsilon) {
  std::vector<double> mixed(sigma.size());
  const double uniform = epsilon / static_cast<double>(sigma.size());
  for (size_t i = 0; i < sigma.size(); ++i) mixed[i] = uniform + (1.0 - epsilon) * sigma[i];
  return mixed;
}

std::pair<AgentId, AgentId> DistinctPairFrom(absl::Span<const double> p, std::mt19937_64& rng) {
  const AgentId a = static_cast<AgentId>(DrawWeighted(p, rng));
  // Redrawing until b != a is drawing from p restricted to the others, renormalised.
  std::vector<double> others(p.begin(), p.end());
  others[a] = 0;
  return {a, static_cast<AgentId>(DrawWeighted(others, rng))};
}

Query BurnIn::Next(int64_t round, std::mt19937_64& rng) {
  if (order_.empty()) {
    order_.resize(tasks_ * agents_);
    std::iota(order_.begin(), order_.end(), 0u);
    for (size_t i = order_.size(); i > 1; --i)
      std::swap(order_[i - 1], order_[UniformIndex(rng, i)]);
  }
  const uint32_t cell = order_[static_cast<size_t>(round - 1)];
  const AgentId a = static_cast<AgentId>(cell % agents_);
  AgentId b = static_cast<AgentId>(UniformIndex(rng, agents_ - 1));
  if (b >= a) ++b;
  return {static_cast<TaskId>(cell / agents_), a, b};
}

}  // namespace ratings::active
