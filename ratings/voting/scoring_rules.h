// The positional scoring rules of the [VasE] appendix: approval(k),
// plurality (1-approval) and Borda, each returning the appendix's score per agent.
//
// Ties and incomplete votes (not covered by the appendix, which has complete strict
// votes): a vote counts only the agents it ranks, and a tie group is scored as the
// average over every order of its members — agents tied in a group occupying positions
// s..s+t-1 (0 = top) share those positions' points equally. On complete strict votes
// the scores are exactly the appendix's.
//
// Exact ties (docs/MODELS.md §6, §9): the points are counted exactly — each vote's
// weight times its share, scaled to a common denominator (the least common multiple of
// the shares' denominators; 2 for Borda) and summed without rounding (ExactSum) — and
// compared exactly, so agents with equal scores always tie and fall to the priority,
// whatever the order of the votes. The reported scores are the nearest doubles to the
// exact sums, divided by the common denominator: equal scores print equal.
#pragma once

#include <vector>

#include "ratings/batch/vote_set.h"
#include "ratings/voting/social_order.h"

namespace ratings::voting {

// Approval(k): 1 point (times the vote's weight) to each of the top k positions of a
// vote. A vote ranking fewer than k agents approves all of them. k < 1 is read as 1.
// The order: score descending (exactly), ties by priority (size = votes.num_agents()).
SocialOrder Approval(const VoteSet& votes, int k, Priority priority);

// Plurality: approval with k = 1 (a tie at the top splits the point).
SocialOrder Plurality(const VoteSet& votes, Priority priority);

// Borda: position i of a vote ranking t agents earns t - 1 - i points (the appendix's
// m - 1, m - 2, ..., 0 when t = m), i.e. the number of agents of the vote ranked below.
// A tied agent earns those below it plus half of those tied with it.
SocialOrder Borda(const VoteSet& votes, Priority priority);

// The scores alone (SocialOrder::score of the functions above), by agent.
std::vector<double> ApprovalScores(const VoteSet& votes, int k);
std::vector<double> PluralityScores(const VoteSet& votes);
std::vector<double> BordaScores(const VoteSet& votes);

}  // namespace ratings::voting
