#include "ratings/rating_history.h"

#include <cassert>

namespace ratings {

RatingHistory::RatingHistory(size_t capacity) : capacity_(capacity) {
  assert(capacity >= 4);
  points_.reserve(capacity);
}

void RatingHistory::Add(const HistoryPoint& point) {
  if (points_.size() >= capacity_) {
    const size_t older = capacity_ / 2;
    size_t kept = 0;
    for (size_t i = 0; i < points_.size(); ++i) {
      if (i >= older || i % 2 == 0) points_[kept++] = points_[i];
    }
    points_.resize(kept);
  }
  points_.push_back(point);
}

}  // namespace ratings
