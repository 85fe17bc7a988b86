// Result builders shared by tests: a strict order as a Result, and one indexed result fed
// to an online model (Elo, SCO, MaximalLottery).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ratings/result.h"

namespace ratings::testing {

// The Result ranking best_first strictly (ranks 1, 2, ... in that order, no scores), weighted.
inline Result Order(const std::vector<std::string>& best_first, double weight = 1.0) {
  Result r;
  r.weight = weight;
  for (size_t i = 0; i < best_first.size(); ++i) {
    r.standings.push_back({best_first[i], static_cast<uint32_t>(i + 1), std::nullopt});
  }
  return r;
}

// Calls model.Update with the IndexedResult {agents, ranks, weight} (agents[i] has ranks[i]).
template <typename OnlineModel>
void Play(OnlineModel& model, const std::vector<AgentId>& agents,
          const std::vector<uint32_t>& ranks, double weight = 1.0) {
  model.Update({agents, ranks, weight});
}

}  // namespace ratings::testing
