#include "ratings/voting/batch_tally.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ratings::voting {

BatchTally::BatchTally(size_t agents, const BatchTallyOptions& options)
    : agents_(agents),
      dense_(agents <= options.dense_max_agents),
      dense_max_agents_(options.dense_max_agents) {
  if (dense_) matrix_.Resize(agents);
}

BatchTally BatchTally::FromVotes(const VoteSet& votes, const BatchTallyOptions& options) {
  BatchTally tally(votes.num_agents(), options);
  // Each pair of a vote adds once, so N does not depend on the order of a vote's standings.
  // The votes are added by weight ascending, so every N(a, b) sums its weights in ascending
  // order: two counts with the same weights are bit-identical whatever the order of the
  // votes, and exact ties stay exact for the rules that compare counts (docs/MODELS.md §9).
  // Equal weights (the usual case) need no sort: their sums do not depend on the order.
  bool equal = true;
  for (size_t v = 1; v < votes.size() && equal; ++v) equal = votes.Weight(v) == votes.Weight(0);
  if (equal) {
    for (size_t v = 0; v < votes.size(); ++v) tally.Add(votes[v]);
    return tally;
  }
  std::vector<size_t> by_weight(votes.size());
  std::iota(by_weight.begin(), by_weight.end(), size_t{0});
  std::stable_sort(by_weight.begin(), by_weight.end(),
                   [&](size_t x, size_t y) { return votes.Weight(x) < votes.Weight(y); });
  for (size_t v : by_weight) tally.Add(votes[v]);
  return tally;
}

void BatchTally::AddPair(AgentId above, AgentId below, double weight) {
  const bool ordered = above < below;
  const uint64_t key = ordered ? (uint64_t{above} << 32) | below : (uint64_t{below} << 32) | above;
  auto& counts = pairs_[key];
  (ordered ? counts.first : counts.second) += weight;
}

void BatchTally::Add(const IndexedResult& result) {
  if (dense_) {
    matrix_.Add(result);
    return;
  }
  const size_t k = result.size();
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = i + 1; j < k; ++j) {
      if (result.ranks[i] == result.ranks[j]) continue;
      if (result.ranks[i] < result.ranks[j]) {
        AddPair(result.agents[i], result.agents[j], result.weight);
      } else {
        AddPair(result.agents[j], result.agents[i], result.weight);
      }
    }
  }
}

double BatchTally::N(AgentId a, AgentId b) const {
  if (dense_) return matrix_.N(a, b);
  if (a == b) return 0.0;
  const bool ordered = a < b;
  const uint64_t key = ordered ? (uint64_t{a} << 32) | b : (uint64_t{b} << 32) | a;
  const auto it = pairs_.find(key);
  if (it == pairs_.end()) return 0.0;
  return ordered ? it->second.first : it->second.second;
}

std::vector<PairCount> BatchTally::Pairs() const {
  std::vector<PairCount> out;
  if (dense_) {
    for (AgentId a = 0; a < agents_; ++a) {
      for (AgentId b = a + 1; b < agents_; ++b) {
        const double ab = matrix_.N(a, b), ba = matrix_.N(b, a);
        if (ab + ba > 0.0) out.push_back({a, b, ab, ba});
      }
    }
    return out;
  }
  out.reserve(pairs_.size());
  for (const auto& [key, counts] : pairs_) {
    if (counts.first + counts.second <= 0.0) continue;
    out.push_back({static_cast<AgentId>(key >> 32), static_cast<AgentId>(key & 0xffffffffu),
                   counts.first, counts.second});
  }
  std::sort(out.begin(), out.end(), [](const PairCount& x, const PairCount& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  return out;
}

absl::StatusOr<Eigen::MatrixXd> BatchTally::PreferenceMatrix() const {
  if (!dense_) {
    return absl::FailedPreconditionError(
        absl::StrCat(agents_, " agents: above the dense tally's limit of ", dense_max_agents_,
                     " agents this method (which needs the full n x n matrix) is refused"));
  }
  const auto n = static_cast<Eigen::Index>(agents_);
  Eigen::MatrixXd out(n, n);
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = 0; b < n; ++b) {
      out(a, b) = matrix_.N(static_cast<AgentId>(a), static_cast<AgentId>(b));
    }
  }
  return out;
}

absl::StatusOr<Eigen::MatrixXd> BatchTally::MarginMatrix() const {
  absl::StatusOr<Eigen::MatrixXd> n = PreferenceMatrix();
  if (!n.ok()) return n.status();
  Eigen::MatrixXd m = *n - n->transpose();
  return m;
}

std::vector<PairCount> TallyPairs(const VoteSet& votes) {
  return BatchTally::FromVotes(votes, {.dense_max_agents = 0}).Pairs();
}

}  // namespace ratings::voting
