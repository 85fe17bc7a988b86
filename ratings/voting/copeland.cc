#include "ratings/voting/copeland.h"

namespace ratings::voting {

std::vector<double> CopelandScores(const BatchTally& tally) {
  const size_t n = tally.agents();
  std::vector<double> wins(n, 0.0), losses(n, 0.0);
  for (const PairCount& p : tally.Pairs()) {
    if (p.n_ab > p.n_ba) {
      wins[p.a] += 1.0;
      losses[p.b] += 1.0;
    } else if (p.n_ba > p.n_ab) {
      wins[p.b] += 1.0;
      losses[p.a] += 1.0;
    }
  }
  std::vector<double> score(n, 0.0);
  for (size_t a = 0; a < n; ++a) {
    const double ties = static_cast<double>(n - 1) - wins[a] - losses[a];
    score[a] = wins[a] + 0.5 * ties;
  }
  return score;
}

}  // namespace ratings::voting
