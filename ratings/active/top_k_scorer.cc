#include "ratings/active/top_k_scorer.h"

namespace ratings::active {

TopKScorer::TopKScorer(absl::Span<const AgentId> truth, size_t num_agents, size_t k)
    : truth_(truth.begin(), truth.end()), truth_position_(num_agents, -1), k_(k), rank_of_top_(k) {
  for (size_t i = 0; i < truth_.size(); ++i) truth_position_[truth_[i]] = static_cast<int>(i);
  const size_t m = truth_.size();
  alpha_ = m > 1 ? static_cast<double>(m - k) / static_cast<double>(m - 1) : 1.0;
}

double TopKScorer::Gre(absl::Span<const AgentId> ranking) {
  if (truth_.size() < 2) return 0.0;
  // Walk the ranking restricted to the truth's agents: the first k of it are its top k;
  // note where each of the truth's top k stands.
  size_t restricted = 0;
  size_t shared = 0;  // agents in both top-k sets
  for (AgentId a : ranking) {
    const int p = truth_position_[a];
    if (p < 0) continue;
    if (static_cast<size_t>(p) < k_) {
      rank_of_top_[p] = restricted;
      if (restricted < k_) ++shared;
    }
    ++restricted;
  }
  const double ide = 1.0 - static_cast<double>(shared) / static_cast<double>(k_);
  if (k_ < 2) return alpha_ * ide;
  size_t discordant = 0;
  for (size_t i = 0; i < k_; ++i) {
    for (size_t j = i + 1; j < k_; ++j) discordant += rank_of_top_[i] > rank_of_top_[j] ? 1 : 0;
  }
  const double kendall = 2.0 * static_cast<double>(discordant) /
                         (static_cast<double>(k_) * static_cast<double>(k_ - 1));
  return alpha_ * ide + (1.0 - alpha_) * kendall;
}

}  // namespace ratings::active
