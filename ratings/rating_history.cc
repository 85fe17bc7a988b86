#include "ratings/rating_history.h"

#include <algorithm>
#include <cassert>
#include <utility>

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
  shared_ = false;
  return *this;
}

RatingHistory::RatingHistory(RatingHistory&& other) noexcept : capacity_(other.capacity_) {
  *this = std::move(other);
}

RatingHistory& RatingHistory::operator=(RatingHistory&& other) noexcept {
  capacity_ = other.capacity_;
  buffer_ = std::move(other.buffer_);
  size_ = std::exchange(other.size_, 0);
  reserved_ = std::exchange(other.reserved_, 0);
  shared_ = std::exchange(other.shared_, false);
  return *this;
}

void RatingHistory::Reallocate(size_t reserved, bool thin) {
  // Thinning rewrites the buffer in place only if no run was shared from it; otherwise (and
  // to grow) the points move to a new buffer, and the runs keep the old one as it was.
  std::shared_ptr<HistoryPoint[]> fresh;
  if (!thin || shared_) {
    fresh = std::make_shared<HistoryPoint[]>(reserved);
    shared_ = false;
  }
  HistoryPoint* to = fresh != nullptr ? fresh.get() : buffer_.get();
  const size_t older = capacity_ / 2;
  size_t kept = 0;
  for (size_t i = 0; i < size_; ++i) {
    if (!thin || i >= older || i % 2 == 0) to[kept++] = buffer_[i];
  }
  if (fresh != nullptr) buffer_ = std::move(fresh);
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
