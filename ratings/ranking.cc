#include "ratings/ranking.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace ratings {
namespace {

using Range = std::vector<AgentId>::iterator;

// Sorts [begin, end) by key descending (exact ties by name) and calls within(first, last)
// on each tie group: a run of agents whose keys are within `tolerance` of its first's.
template <typename Key, typename Within>
void TieGroups(Range begin, Range end, const Key& key, const AgentIndex& index, double tolerance,
               const Within& within) {
  std::sort(begin, end, [&](AgentId a, AgentId b) {
    if (key[a] != key[b]) return key[a] > key[b];
    return index.Name(a) < index.Name(b);
  });
  for (Range first = begin; first != end;) {
    Range last = first + 1;
    while (last != end && key[*first] - key[*last] <= tolerance) ++last;
    within(first, last);
    first = last;
  }
}

std::vector<RankedAgent> Ranked(const std::vector<AgentId>& order,
                                absl::Span<const double> rating) {
  std::vector<RankedAgent> ranked(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    ranked[i] = {static_cast<uint32_t>(i + 1), order[i], rating[order[i]]};
  }
  return ranked;
}

}  // namespace

void SortByValue(std::vector<AgentId>& agents, absl::Span<const double> value,
                 const AgentIndex& index, double tolerance) {
  auto by_name = [&](Range first, Range last) {
    std::sort(first, last, [&](AgentId a, AgentId b) { return index.Name(a) < index.Name(b); });
  };
  TieGroups(agents.begin(), agents.end(), value, index, tolerance, by_name);
}

std::vector<RankedAgent> RankByRating(absl::Span<const double> rating, const AgentIndex& index,
                                      double tolerance) {
  std::vector<AgentId> order(rating.size());
  std::iota(order.begin(), order.end(), AgentId{0});
  SortByValue(order, rating, index, tolerance);
  return Ranked(order, rating);
}

std::vector<RankedAgent> RankByProbabilityThenRating(absl::Span<const double> probability,
                                                     absl::Span<const double> rating,
                                                     const AgentIndex& index, double tolerance) {
  std::vector<AgentId> order(rating.size());
  std::iota(order.begin(), order.end(), AgentId{0});
  auto by_name = [&](Range first, Range last) {
    std::sort(first, last, [&](AgentId a, AgentId b) { return index.Name(a) < index.Name(b); });
  };
  auto by_rating = [&](Range first, Range last) {
    TieGroups(first, last, rating, index, tolerance, by_name);
  };
  TieGroups(order.begin(), order.end(), probability, index, tolerance, by_rating);
  return Ranked(order, rating);
}

}  // namespace ratings
