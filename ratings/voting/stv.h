// Single Transferable Vote as a social welfare function with the score of
// the [VasE] appendix ("Single Transferable Vote (STV)").
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "ratings/batch/vote_set.h"
#include "ratings/voting/social_order.h"

namespace ratings::voting {

struct StvOptions {
  // Number of winners k; 0 = the default max(1, floor(m / 2)) for m agents (the appendix
  // prints min(1, floor(m/2)), which is 1 for every m >= 2 — read as a typo for max).
  int winners = 0;
};

struct StvOutcome {
  SocialOrder order = {};          // winners by round elected, then losers, last out first
  int winners = 0;                 // the effective k
  double quota = 0.0;              // Droop quota floor(n / (k + 1)) + 1, n = total weight
  std::vector<double> votes = {};  // by agent: votes held in the round it won or went out
};

// Rounds (appendix): each round either elects the hopeful with the most votes if it
// reaches the quota, or eliminates the hopeful with the fewest. Surplus votes are
// transferred fractionally (Gregory): every vote counting for the winner passes on
// (votes - quota) / votes of its value. A vote counts for the hopefuls of its best
// group that still has any, split equally among them (ties); a vote with none left is
// exhausted (incomplete votes). When the hopefuls left are no more than the seats left,
// they are elected (most votes first); when the seats are filled, the hopefuls left
// join the losers (most votes first).
// Ties between candidates: the one with the lower priority value is elected first and
// eliminated last.
// Exact count (docs/MODELS.md §6, §9): ballot values and tallies are integers of
// u = 1/(2520 * 10^9) vote: each weight is rounded to the nearest u (exact with up to 9
// decimals), a ballot split over t tied hopefuls gives each value / t rounded down to a u
// (exact for a whole vote and t <= 10), and a surplus transfer keeps floor(share * tv / 10^9)
// of each share, tv = floor(10^9 (votes - quota) / votes) (the transfer value truncated to 9
// decimals, as statutory STV counts truncate). Tallies are then sums of integers, compared
// exactly: equal tallies always fall to the priority.
// Score: winners 2m - i_w (i_w = index among winners), losers m - i_l (i_l = index
// among losers, best first), plus the appendix's ".X" suffix (X = votes held when
// decided) as X / 10^d, where d is the number of decimal digits of floor(n): the
// concatenation of the appendix with X zero-padded to n's width, so it is monotone and
// below 1 (pentathlon: 6.3, 3.2, 2.1).
// InvalidArgument if options.winners < 0 or > m, or the total weight is not finite or
// above 3.9e15 (the fixed-point range).
// Priority size must be m.
absl::StatusOr<StvOutcome> Stv(const VoteSet& ballots, const StvOptions& options,
                               Priority priority);

}  // namespace ratings::voting
