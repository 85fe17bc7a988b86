#include "ratings/rating_history.h"

#include <algorithm>
#include <cassert>

namespace ratings {

RatingHistory::RatingHistory(size_t capacity) : capacity_(capacity) { assert(capacity >= 4); }

void RatingHistory::Add(const HistoryPoint& point) {
  if (points_.size() >= capacity_) {
    const size_t older = capacity_ / 2;
    size_t kept = 0;
    for (size_t i = 0; i < points_.size(); ++i) {
      if (i >= older || i % 2 == 0) points_[kept++] = points_[i];
    }
    points_.resize(kept);
  }
  if (points_.size() == points_.capacity()) {  // grow, never past the capacity
    points_.reserve(std::min(capacity_, std::max<size_t>(4, 2 * points_.size())));
  }
  points_.push_back(point);
}

}  // namespace ratings
