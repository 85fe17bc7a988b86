#include "ratings/ranking.h"

#include <algorithm>
#include <numeric>

namespace ratings {
namespace {

template <typename Before>
std::vector<RankedAgent> Rank(absl::Span<const double> rating, Before before) {
  std::vector<AgentId> order(rating.size());
  std::iota(order.begin(), order.end(), AgentId{0});
  std::sort(order.begin(), order.end(), before);
  std::vector<RankedAgent> ranked(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    ranked[i] = {static_cast<uint32_t>(i + 1), order[i], rating[order[i]]};
  }
  return ranked;
}

}  // namespace

std::vector<RankedAgent> RankByRating(absl::Span<const double> rating, const AgentIndex& index) {
  return Rank(rating, [&](AgentId a, AgentId b) {
    if (rating[a] != rating[b]) return rating[a] > rating[b];
    return index.Name(a) < index.Name(b);
  });
}

std::vector<RankedAgent> RankByProbabilityThenRating(absl::Span<const double> probability,
                                                     absl::Span<const double> rating,
                                                     const AgentIndex& index) {
  return Rank(rating, [&](AgentId a, AgentId b) {
    if (probability[a] != probability[b]) return probability[a] > probability[b];
    if (rating[a] != rating[b]) return rating[a] > rating[b];
    return index.Name(a) < index.Name(b);
  });
}

}  // namespace ratings
