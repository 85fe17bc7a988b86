// The rank-disagreement metric (docs/CONTRACTS.md §3): the normalised Kendall-tau distance between
// two models' rankings of one pool, i.e. the fraction of agent pairs they order
// differently. A high value flags cycles or clones (Elo and ML disagree there).
#pragma once

#include <cstdint>
#include <vector>

namespace ratingd {

// rank_a[i], rank_b[i]: 1-based ranks of agent i (0 = unranked; such agents are left
// out). Ranks are a total order (no ties). Returns 0 with fewer than two agents ranked by
// both. O(n log n) (inversions counted by merge sort).
double NormalizedKendallTau(const std::vector<uint32_t>& rank_a,
                            const std::vector<uint32_t>& rank_b);

}  // namespace ratingd
