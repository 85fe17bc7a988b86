#include "ratings/batch/pair_outcomes.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace ratings {

PairOutcomeTally::PairOutcomeTally(const VoteSet& votes) {
  // Pass 1: every pair seen, then sorted, so pair indices follow (a, b).
  absl::flat_hash_map<std::pair<AgentId, AgentId>, uint32_t> index;
  for (size_t v = 0; v < votes.size(); ++v) {
    const absl::Span<const AgentId> agents = votes[v].agents;
    for (size_t i = 0; i < agents.size(); ++i) {
      for (size_t j = i + 1; j < agents.size(); ++j) {
        index.try_emplace(std::minmax(agents[i], agents[j]), 0);
      }
    }
  }
  std::vector<std::pair<AgentId, AgentId>> keys;
  keys.reserve(index.size());
  for (const auto& [key, unused] : index) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (uint32_t p = 0; p < keys.size(); ++p) {
    index[keys[p]] = p;
    pairs_.push_back(
        {.a = keys[p].first, .b = keys[p].second, .a_wins = 0, .b_wins = 0, .ties = 0});
  }
  // Pass 2: each vote's entries.
  offsets_.reserve(votes.size() + 1);
  offsets_.push_back(0);
  for (size_t v = 0; v < votes.size(); ++v) {
    const IndexedResult vote = votes[v];
    for (size_t i = 0; i < vote.agents.size(); ++i) {
      for (size_t j = i + 1; j < vote.agents.size(); ++j) {
        const bool i_first = vote.agents[i] < vote.agents[j];
        const AgentId a = i_first ? vote.agents[i] : vote.agents[j];
        const AgentId b = i_first ? vote.agents[j] : vote.agents[i];
        const uint32_t rank_a = i_first ? vote.ranks[i] : vote.ranks[j];
        const uint32_t rank_b = i_first ? vote.ranks[j] : vote.ranks[i];
        const Outcome outcome = rank_a < rank_b   ? Outcome::kAWins
                                : rank_b < rank_a ? Outcome::kBWins
                                                  : Outcome::kTie;
        entries_.push_back({.pair = index.at({a, b}), .outcome = outcome});
      }
    }
    offsets_.push_back(entries_.size());
    weights_.push_back(votes.Weight(v));
  }
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
