#include "ratings/batch/pair_outcomes.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace ratings {

PairOutcomeTally::PairOutcomeTally(const VoteSet& votes) {
  // One pass: each pair gets an index on first sight, each vote its entries; then the pairs
  // are sorted by (a, b) and the entries renumbered, so pair indices follow (a, b).
  absl::flat_hash_map<std::pair<AgentId, AgentId>, uint32_t> index;
  std::vector<std::pair<AgentId, AgentId>> keys;
  offsets_.reserve(votes.size() + 1);
  offsets_.push_back(0);
  weights_.reserve(votes.size());
  for (size_t v = 0; v < votes.size(); ++v) {
    const IndexedResult vote = votes[v];
    for (size_t i = 0; i < vote.agents.size(); ++i) {
      for (size_t j = i + 1; j < vote.agents.size(); ++j) {
        const bool i_first = vote.agents[i] < vote.agents[j];
        const AgentId a = i_first ? vote.agents[i] : vote.agents[j];
        const AgentId b = i_first ? vote.agents[j] : vote.agents[i];
        const uint32_t rank_a = i_first ? vote.ranks[i] : vote.ranks[j];
        const uint32_t rank_b = i_first ? vote.ranks[j] : vote.ranks[i];
        const auto [it, inserted] = index.try_emplace({a, b}, static_cast<uint32_t>(keys.size()));
        if (inserted) keys.emplace_back(a, b);
        const Outcome outcome = rank_a < rank_b   ? Outcome::kAWins
                                : rank_b < rank_a ? Outcome::kBWins
                                                  : Outcome::kTie;
        entries_.push_back({.pair = it->second, .outcome = outcome});
      }
    }
    offsets_.push_back(entries_.size());
    weights_.push_back(votes.Weight(v));
  }
  std::vector<uint32_t> order(keys.size());
  for (uint32_t p = 0; p < order.size(); ++p) order[p] = p;
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return keys[x] < keys[y]; });
  std::vector<uint32_t> renumbered(keys.size());
  for (uint32_t p = 0; p < order.size(); ++p) {
    renumbered[order[p]] = p;
    pairs_.push_back({.a = keys[order[p]].first,
                      .b = keys[order[p]].second,
                      .a_wins = 0,
                      .b_wins = 0,
                      .ties = 0});
  }
  for (Entry& e : entries_) e.pair = renumbered[e.pair];
}

std::vector<PairOutcomes> PairOutcomeTally::Tally(absl::Span<const uint32_t> times) const {
  std::vector<PairOutcomes> pairs = pairs_;
  for (size_t v = 0; v + 1 < offsets_.size(); ++v) {
    const double weight = times.empty() ? weights_[v] : weights_[v] * times[v];
    if (weight == 0) continue;
    for (size_t e = offsets_[v]; e < offsets_[v + 1]; ++e) {
      PairOutcomes& pair = pairs[entries_[e].pair];
      switch (entries_[e].outcome) {
        case Outcome::kAWins:
          pair.a_wins += weight;
          break;
        case Outcome::kBWins:
          pair.b_wins += weight;
          break;
        case Outcome::kTie:
          pair.ties += weight;
          break;
      }
    }
  }
  return pairs;
}

}  // namespace ratings
