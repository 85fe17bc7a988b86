// The positional scoring rules of the [VasE] appendix: approval(k),
// plurality (1-approval) and Borda, each returning the appendix's score per agent
// (order them with OrderByScore: score descending, ties by priority).
//
// Ties and incomplete votes (not covered by the appendix, which has complete strict
// votes): a vote counts only the agents it ranks, and a tie group is scored as the
// average over every order of its members — agents tied in a group occupying positions
// s..s+t-1 (0 = top) share those positions' points equally. On complete strict votes
// the scores are exactly the appendix's.
#pragma once

#include <vector>

#include "ratings/batch/vote_set.h"

namespace ratings::voting {

// Approval(k): 1 point (times the vote's weight) to each of the top k positions of a
// vote. A vote ranking fewer than k agents approves all of them. Precondition: k >= 1.
std::vector<double> ApprovalScores(const VoteSet& votes, int k);

// Plurality: approval with k = 1 (a tie at the top splits the point).
std::vector<double> PluralityScores(const VoteSet& votes);

// Borda: position i of a vote ranking t agents earns t - 1 - i points (the appendix's
// m - 1, m - 2, ..., 0 when t = m), i.e. the number of agents of the vote ranked below.
// A tied agent earns those below it plus half of those tied with it.
std::vector<double> BordaScores(const VoteSet& votes);

}  // namespace ratings::voting
