#include "ratings/pairwise_tally.h"

#include <algorithm>

namespace ratings {

void PairwiseTally::Resize(size_t n) {
  if (n <= size_) return;
  if (n > capacity_) {
    const size_t capacity = std::max({n, 2 * capacity_, size_t{16}});
    std::vector<double> grown(capacity * capacity, 0.0);
    for (size_t a = 0; a < size_; ++a) {
      std::copy_n(n_.begin() + a * capacity_, size_, grown.begin() + a * capacity);
    }
    n_ = std::move(grown);
    capacity_ = capacity;
  }
  size_ = n;
}

void PairwiseTally::Add(const IndexedResult& result) {
  const size_t k = result.size();
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = i + 1; j < k; ++j) {
      if (result.ranks[i] == result.ranks[j]) continue;
      const bool i_above = result.ranks[i] < result.ranks[j];
      const AgentId a = i_above ? result.agents[i] : result.agents[j];
      const AgentId b = i_above ? result.agents[j] : result.agents[i];
      n_[a * capacity_ + b] += result.weight;
    }
  }
}

Eigen::MatrixXd PairwiseTally::MarginMatrix() const {
  const auto n = static_cast<Eigen::Index>(size_);
  Eigen::MatrixXd m(n, n);
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = 0; b < n; ++b) {
      m(a, b) = N(static_cast<AgentId>(a), static_cast<AgentId>(b)) -
                N(static_cast<AgentId>(b), static_cast<AgentId>(a));
    }
  }
  return m;
}

void PairwiseTally::Clear() {
  size_ = 0;
  capacity_ = 0;
  n_ = {};
}

}  // namespace ratings
