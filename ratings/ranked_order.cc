#include "ratings/ranked_order.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace ratings {

bool RankedOrder::Before(AgentId a, AgentId b) const {
  if (rating_[a] != rating_[b]) return rating_[a] > rating_[b];
  return index_->Name(a) < index_->Name(b);
}

void RankedOrder::Set(AgentId id, double rating,
                      std::vector<std::pair<AgentId, uint32_t>>* displaced) {
  if (id == order_.size()) {
    order_.push_back(id);
    pos_.push_back(static_cast<uint32_t>(order_.size() - 1));
    rating_.push_back(rating);
  } else {
    rating_[id] = rating;
  }
  uint32_t p = pos_[id];
  // Bubble towards the top, then towards the bottom; each agent passed shifts by one.
  while (p > 0 && Before(id, order_[p - 1])) {
    const AgentId other = order_[p - 1];
    if (displaced != nullptr) displaced->emplace_back(other, p);  // its rank was p
    order_[p] = other;
    pos_[other] = p;
    --p;
  }
  while (p + 1 < order_.size() && Before(order_[p + 1], id)) {
    const AgentId other = order_[p + 1];
    if (displaced != nullptr) displaced->emplace_back(other, p + 2);  // its rank was p + 2
    order_[p] = other;
    pos_[other] = p;
    ++p;
  }
  order_[p] = id;
  pos_[id] = p;
}

void RankedOrder::Reset(const std::vector<double>& ratings) {
  rating_ = ratings;
  const size_t n = ratings.size();
  // Sorted as contiguous (rating, id) pairs by rating, then each run of equal ratings by
  // name: Before()'s order, without a random access per comparison (a third of the time
  // at a million agents).
  std::vector<std::pair<double, AgentId>> keyed(n);
  for (size_t a = 0; a < n; ++a) keyed[a] = {ratings[a], static_cast<AgentId>(a)};
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& x, const auto& y) { return x.first > y.first; });
  order_.resize(n);
  for (size_t p = 0; p < n; ++p) order_[p] = keyed[p].second;
  for (size_t begin = 0, end = 0; begin < n; begin = end) {
    end = begin + 1;
    while (end < n && keyed[end].first == keyed[begin].first) ++end;
    std::sort(order_.begin() + static_cast<std::ptrdiff_t>(begin),
              order_.begin() + static_cast<std::ptrdiff_t>(end),
              [this](AgentId a, AgentId b) { return index_->Name(a) < index_->Name(b); });
  }
  pos_.resize(n);
  for (size_t p = 0; p < n; ++p) pos_[order_[p]] = static_cast<uint32_t>(p);
}

}  // namespace ratings
