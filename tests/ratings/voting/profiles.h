// Small profiles for the voting tests, built by hand.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ratings/batch/vote_set.h"

namespace ratings::voting::testing {

// A weak order: groups of agents, best group first.
using WeakOrder = std::vector<std::vector<AgentId>>;

inline void AddWeakOrder(VoteSet& profile, const WeakOrder& order, double weight = 1.0) {
  std::vector<AgentId> agents;
  std::vector<uint32_t> ranks;
  for (size_t g = 0; g < order.size(); ++g) {
    for (AgentId a : order[g]) {
      agents.push_back(a);
      ranks.push_back(static_cast<uint32_t>(g + 1));
    }
  }
  profile.Add({agents, ranks, weight});
}

// Strict orders, best first, each with a weight.
inline VoteSet StrictProfile(size_t agents,
                             const std::vector<std::pair<double, std::vector<AgentId>>>& votes) {
  VoteSet profile(agents);
  for (const auto& [weight, order] : votes) {
    WeakOrder groups;
    for (AgentId a : order) groups.push_back({a});
    AddWeakOrder(profile, groups, weight);
  }
  return profile;
}

constexpr AgentId kA = 0, kB = 1, kC = 2;

// [VasE] App., "Voting Methods used in the Applications": the
// pentathlon of Fig. 1 as the profile 1: A>B>C, 1: A>C>B, 2: C>A>B, 1: B>C>A.
inline VoteSet Pentathlon() {
  return StrictProfile(
      3, {{1, {kA, kB, kC}}, {1, {kA, kC, kB}}, {2, {kC, kA, kB}}, {1, {kB, kC, kA}}});
}

}  // namespace ratings::voting::testing
