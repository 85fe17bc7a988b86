#include "ratings/rating_history.h"

#include <algorithm>
#include <cassert>

namespace ratings {

RatingHistory::RatingHistory(size_t capacity) : capacity_(capacity) { assert(capacity >= 4); }

RatingHistory::RatingHistory(const RatingHistory& other) : capacity_(other.capacity_) {
  *this = other;
}

RatingHistory& RatingHistory::operator=(const RatingHistory& other) {
  if (this == &other) return *this;
  capacity_ = other.capacity_;
  buffer_ = std::make_shared<HistoryPoint[]>(other.reserved_);
  std::copy(other.buffer_.get(), other.buffer_.get() + other.size_, buffer_.get());
  size_ = other.size_;
  reserved_ = other.reserved_;
  return *this;
}

void RatingHistory::Reallocate(size_t reserved, bool thin) {
  // A new buffer every time, never the old one rewritten: runs shared from it stay valid.
  std::shared_ptr<HistoryPoint[]> fresh = std::make_shared<HistoryPoint[]>(reserved);
  const size_t older = capacity_ / 2;
  size_t kept = 0;
  for (size_t i = 0; i < size_; ++i) {
    if (!thin || i >= older || i % 2 == 0) fresh[kept++] = buffer_[i];
  }
  buffer_ = std::move(fresh);
  size_ = kept;
  reserved_ = reserved;
}

void RatingHistory::Add(const HistoryPoint& point) {
  if (size_ >= capacity_) {
    Reallocate(reserved_, /*thin=*/true);
  } else if (size_ == reserved_) {  // grow, never past the capacity
    Reallocate(std::min(capacity_, std::max<size_t>(4, 2 * size_)), /*thin=*/false);
  }
  buffer_[size_++] = point;
}

}  // namespace ratings
