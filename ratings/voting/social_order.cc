#include "ratings/voting/social_order.h"

#include <algorithm>
#include <numeric>

namespace ratings::voting {

std::vector<uint32_t> IdentityPriority(size_t n) {
  std::vector<uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  return p;
}

std::vector<AgentId> OrderByScore(absl::Span<const double> score, Priority priority) {
  std::vector<AgentId> order(score.size());
  std::iota(order.begin(), order.end(), AgentId{0});
  std::sort(order.begin(), order.end(), [&](AgentId a, AgentId b) {
    if (score[a] != score[b]) return score[a] > score[b];
    return priority[a] < priority[b];
  });
  return order;
}

}  // namespace ratings::voting
