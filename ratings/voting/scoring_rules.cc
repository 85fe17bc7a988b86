#include "ratings/voting/scoring_rules.h"

#include <algorithm>
#include <cstddef>

namespace ratings::voting {
namespace {

// Calls visit(agent, first position, group size, vote size, weight) for every standing.
template <typename Visit>
void ForEachGroupMember(const VoteSet& votes, Visit visit) {
  for (size_t v = 0; v < votes.size(); ++v) {
    const IndexedResult vote = votes.BestFirst(v);
    const auto agents = vote.agents;
    const auto groups = vote.ranks;  // dense: equal values tie
    size_t start = 0;
    while (start < agents.size()) {
      size_t end = start + 1;
      while (end < agents.size() && groups[end] == groups[start]) ++end;
      for (size_t i = start; i < end; ++i) {
        visit(agents[i], start, end - start, agents.size(), vote.weight);
      }
      start = end;
    }
  }
}

}  // namespace

std::vector<double> ApprovalScores(const VoteSet& votes, int k) {
  std::vector<double> score(votes.num_agents(), 0.0);
  const size_t top = static_cast<size_t>(std::max(k, 1));
  ForEachGroupMember(votes, [&](AgentId a, size_t first, size_t tied, size_t, double w) {
    // Positions first..first+tied-1; those < top are approved, shared by the group.
    if (first >= top) return;
    const size_t approved = std::min(top, first + tied) - first;
    score[a] += w * static_cast<double>(approved) / static_cast<double>(tied);
  });
  return score;
}

std::vector<double> PluralityScores(const VoteSet& votes) { return ApprovalScores(votes, 1); }

std::vector<double> BordaScores(const VoteSet& votes) {
  std::vector<double> score(votes.num_agents(), 0.0);
  ForEachGroupMember(votes, [&](AgentId a, size_t first, size_t tied, size_t size, double w) {
    const double below = static_cast<double>(size - first - tied);
    score[a] += w * (below + 0.5 * static_cast<double>(tied - 1));
  });
  return score;
}

}  // namespace ratings::voting
