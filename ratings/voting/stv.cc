#include "ratings/voting/stv.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace ratings::voting {
namespace {

enum class State { kHopeful, kElected, kEliminated };

// Calls counted(group, live) with the tie group vote v counts for, its best group that
// still has a hopeful (group: all its agents, hopeful or not; live: how many are
// hopeful); not at all if no group has one (the vote is exhausted). A template so that
// each caller gets it inlined: it runs for every vote in every round.
template <typename Counted>
void ForBestLiveGroup(const VoteSet& ballots, size_t v, const std::vector<State>& state,
                      Counted&& counted) {
  const IndexedResult ballot = ballots.BestFirst(v);
  const auto agents = ballot.agents;
  const auto groups = ballot.ranks;  // dense: equal values tie
  size_t i = 0;
  while (i < agents.size()) {
    size_t end = i + 1;
    while (end < agents.size() && groups[end] == groups[i]) ++end;
    size_t live = 0;
    for (size_t j = i; j < end; ++j) live += state[agents[j]] == State::kHopeful;
    if (live > 0) {
      // Not agents.subspan(i, end - i), whose range check and clamp slow the count.
      counted(absl::MakeConstSpan(agents.data() + i, end - i), live);
      return;
    }
    i = end;
  }
}

// Each vote's share of its current value per hopeful of its best live group.
void Count(const VoteSet& ballots, const std::vector<double>& value,
           const std::vector<State>& state, std::vector<double>& votes) {
  std::fill(votes.begin(), votes.end(), 0.0);
  for (size_t v = 0; v < ballots.size(); ++v) {
    if (value[v] <= 0.0) continue;
    ForBestLiveGroup(ballots, v, state, [&](absl::Span<const AgentId> group, size_t live) {
      for (AgentId a : group) {
        if (state[a] == State::kHopeful) votes[a] += value[v] / static_cast<double>(live);
      }
    });
  }
}

}  // namespace

absl::StatusOr<StvOutcome> Stv(const VoteSet& ballots, const StvOptions& options,
                               Priority priority) {
  const size_t m = ballots.num_agents();
  if (options.winners < 0 || static_cast<size_t>(options.winners) > m) {
    return absl::InvalidArgumentError(
        absl::StrCat("winners: ", options.winners, " is not in [0, ", m, "] (0 = default)"));
  }
  if (!std::isfinite(ballots.TotalWeight())) {
    return absl::InvalidArgumentError("the total weight of the votes is not finite");
  }
  StvOutcome out;
  out.winners = options.winners > 0 ? options.winners : std::max(1, static_cast<int>(m / 2));
  if (m == 0) return out;
  const size_t k = static_cast<size_t>(out.winners);
  const double n = ballots.TotalWeight();
  out.quota = std::floor(n / static_cast<double>(k + 1)) + 1.0;

  std::vector<State> state(m, State::kHopeful);
  std::vector<double> value(ballots.size());
  for (size_t v = 0; v < ballots.size(); ++v) value[v] = ballots.Weight(v);
  std::vector<double> votes(m, 0.0);
  out.votes.assign(m, 0.0);
  std::vector<AgentId> won;
  std::deque<AgentId> lost;  // best first: the later out, the earlier
  size_t hopeful = m;

  // Hopefuls by votes descending, ties by priority.
  auto ranked_hopefuls = [&] {
    std::vector<AgentId> h;
    for (AgentId a = 0; a < m; ++a) {
      if (state[a] == State::kHopeful) h.push_back(a);
    }
    std::sort(h.begin(), h.end(), [&](AgentId a, AgentId b) {
      if (votes[a] != votes[b]) return votes[a] > votes[b];
      return priority[a] < priority[b];
    });
    return h;
  };

  while (won.size() < k && hopeful > 0) {
    Count(ballots, value, state, votes);
    const std::vector<AgentId> h = ranked_hopefuls();
    if (h.size() <= k - won.size()) {
      for (AgentId a : h) {
        state[a] = State::kElected;
        out.votes[a] = votes[a];
        won.push_back(a);
      }
      hopeful = 0;
      break;
    }
    const AgentId best = h.front();
    if (votes[best] >= out.quota) {
      // Gregory transfer: votes counting for `best` keep (votes - quota) / votes of the
      // share they gave it.
      const double keep = (votes[best] - out.quota) / votes[best];
      for (size_t v = 0; v < ballots.size(); ++v) {
        if (value[v] <= 0.0) continue;
        ForBestLiveGroup(ballots, v, state, [&](absl::Span<const AgentId> group, size_t live) {
          if (std::find(group.begin(), group.end(), best) != group.end()) {
            value[v] -= value[v] / static_cast<double>(live) * (1.0 - keep);
          }
        });
      }
      state[best] = State::kElected;
      out.votes[best] = votes[best];
      won.push_back(best);
    } else {
      const AgentId worst = h.back();
      state[worst] = State::kEliminated;
      out.votes[worst] = votes[worst];
      lost.push_front(worst);
    }
    --hopeful;
  }
  if (hopeful > 0) {
    // Seats filled: the hopefuls left join the losers, most votes first.
    Count(ballots, value, state, votes);
    const std::vector<AgentId> h = ranked_hopefuls();
    for (auto it = h.rbegin(); it != h.rend(); ++it) {
      out.votes[*it] = votes[*it];
      lost.push_front(*it);
    }
  }

  double scale = 10.0;
  while (scale <= std::floor(n)) scale *= 10.0;
  out.order.score.assign(m, 0.0);
  const double md = static_cast<double>(m);
  for (size_t i = 0; i < won.size(); ++i) {
    out.order.order.push_back(won[i]);
    out.order.score[won[i]] = 2.0 * md - static_cast<double>(i) + out.votes[won[i]] / scale;
  }
  for (size_t i = 0; i < lost.size(); ++i) {
    out.order.order.push_back(lost[i]);
    out.order.score[lost[i]] = md - static_cast<double>(i) + out.votes[lost[i]] / scale;
  }
  return out;
}

}  // namespace ratings::voting
