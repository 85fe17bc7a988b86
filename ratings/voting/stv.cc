#include "ratings/voting/stv.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

// STV counts in fixed point (docs/MODELS.md §6, "STV"): ballot values and tallies are
// integers of 1/(2520 * 10^9) vote, so tallies are sums of integers, exact in any order, and
// compare exactly; candidates whose tallies tie fall to the priority. 2520 = lcm(1..10): a
// whole vote splits exactly over up to 10 tied hopefuls; 10^9: weights with up to 9 decimals
// are exact.
__extension__ using Units = __int128;  // GCC/Clang; -Wpedantic-clean
constexpr int64_t kUnitsPerVote = int64_t{2520} * 1'000'000'000;
// Transfer values are kept to 9 decimals, in units of 10^-9.
constexpr int64_t kTransferScale = 1'000'000'000;
// Total weights up to 3.9e15 votes: values below 2^93 units, their products with a transfer
// value (at most 10^9 < 2^30) below 2^123.
constexpr double kMaxTotalWeight = 3.9e15;

double ToVotes(Units u) { return static_cast<double>(u) / static_cast<double>(kUnitsPerVote); }

// Each vote's share of its current value per hopeful of its best live group: value / live,
// rounded down to a whole unit (a tie's remainder, under `live` units, is exhausted).
void Count(const VoteSet& ballots, const std::vector<Units>& value, const std::vector<State>& state,
           std::vector<Units>& votes) {
  std::fill(votes.begin(), votes.end(), Units{0});
  for (size_t v = 0; v < ballots.size(); ++v) {
    if (value[v] <= 0) continue;
    ForBestLiveGroup(ballots, v, state, [&](absl::Span<const AgentId> group, size_t live) {
      const Units share = live == 1 ? value[v] : value[v] / static_cast<Units>(live);
      for (AgentId a : group) {
        if (state[a] == State::kHopeful) votes[a] += share;
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
  if (!(ballots.TotalWeight() <= kMaxTotalWeight)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the total weight of the votes, ", ballots.TotalWeight(),
                     ", is not finite or above STV's fixed-point limit of 3.9e15"));
  }
  StvOutcome out;
  out.winners = options.winners > 0 ? options.winners : std::max(1, static_cast<int>(m / 2));
  if (m == 0) return out;
  const size_t k = static_cast<size_t>(out.winners);
  // Each weight rounded to the nearest unit (exact for weights with up to 9 decimals).
  std::vector<Units> value(ballots.size());
  Units n = 0;
  for (size_t v = 0; v < ballots.size(); ++v) {
    value[v] =
        static_cast<Units>(std::nearbyint(ballots.Weight(v) * static_cast<double>(kUnitsPerVote)));
    n += value[v];
  }
  const Units whole_votes = n / kUnitsPerVote;  // floor(n), n in votes
  // Droop: floor(n / (k + 1)) + 1 votes.
  const Units quota = (whole_votes / static_cast<Units>(k + 1) + 1) * kUnitsPerVote;
  out.quota = ToVotes(quota);

  std::vector<State> state(m, State::kHopeful);
  std::vector<Units> votes(m, 0);
  out.votes.assign(m, 0.0);
  std::vector<AgentId> won;
  std::deque<AgentId> lost;  // best first: the later out, the earlier
  size_t hopeful = m;

  // Hopefuls by votes descending (exact), ties by priority.
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
        out.votes[a] = ToVotes(votes[a]);
        won.push_back(a);
      }
      hopeful = 0;
      break;
    }
    const AgentId best = h.front();
    if (votes[best] >= quota) {
      // Gregory transfer: votes counting for `best` keep the transfer value
      // (votes - quota) / votes of the share they gave it, rounded down to 1e-9, and each
      // kept share is rounded down to a unit (as statutory STV counts round).
      const Units keep = (votes[best] - quota) * kTransferScale / votes[best];
      for (size_t v = 0; v < ballots.size(); ++v) {
        if (value[v] <= 0) continue;
        ForBestLiveGroup(ballots, v, state, [&](absl::Span<const AgentId> group, size_t live) {
          if (std::find(group.begin(), group.end(), best) != group.end()) {
            const Units share = live == 1 ? value[v] : value[v] / static_cast<Units>(live);
            value[v] -= share - share * keep / kTransferScale;
          }
        });
      }
      state[best] = State::kElected;
      out.votes[best] = ToVotes(votes[best]);
      won.push_back(best);
    } else {
      const AgentId worst = h.back();
      state[worst] = State::kEliminated;
      out.votes[worst] = ToVotes(votes[worst]);
      lost.push_front(worst);
    }
    --hopeful;
  }
  if (hopeful > 0) {
    // Seats filled: the hopefuls left join the losers, most votes first.
    Count(ballots, value, state, votes);
    const std::vector<AgentId> h = ranked_hopefuls();
    for (auto it = h.rbegin(); it != h.rend(); ++it) {
      out.votes[*it] = ToVotes(votes[*it]);
      lost.push_front(*it);
    }
  }

  double scale = 10.0;
  while (scale <= static_cast<double>(whole_votes)) scale *= 10.0;
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
