// Condorcet winner detection ([VasE] §2; [SCO] §4.1-4.2 "Condorcet match"):
// from the distinct pairs of a batch tally, so it works on sparse data.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "ratings/pair_count.h"

namespace ratings {

// The agent c of [0, num_agents) with N(c, x) > N(x, c) against every other agent x, if
// any (at most one exists). A pair never compared is a tie, so with sparse data there is
// often none. Precondition: pairs are distinct with a < b < num_agents. O(agents + pairs).
std::optional<AgentId> CondorcetWinner(size_t num_agents, absl::Span<const PairCount> pairs);

// The agents c with N(c, x) >= N(x, c) against every other x (weak Condorcet winners),
// ascending. Same preconditions.
std::vector<AgentId> WeakCondorcetWinners(size_t num_agents, absl::Span<const PairCount> pairs);

}  // namespace ratings
