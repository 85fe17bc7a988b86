#include "ratings/rating_history.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace ratings {
namespace {

static_assert(std::is_trivially_copyable_v<HistoryPoint> &&
              std::is_trivially_destructible_v<HistoryPoint>);

// Room for n points, not initialised: every point is written before it is read, and
// initialising a buffer first would write it twice. The points come to life in the bytes
// (HistoryPoint is trivially copyable, an implicit-lifetime type).
struct alignas(HistoryPoint) PointBytes {
  std::byte bytes[sizeof(HistoryPoint)];
};
std::shared_ptr<HistoryPoint[]> NewBuffer(size_t n) {
  std::shared_ptr<PointBytes[]> raw = std::make_shared_for_overwrite<PointBytes[]>(n);
  HistoryPoint* points = std::launder(reinterpret_cast<HistoryPoint*>(raw.get()));
  return {std::move(raw), points};
}

}  // namespace

RatingHistory::RatingHistory(size_t capacity) : capacity_(capacity) { assert(capacity >= 4); }

RatingHistory::RatingHistory(const RatingHistory& other) : capacity_(other.capacity_) {
  *this = other;
}

RatingHistory& RatingHistory::operator=(const RatingHistory& other) {
  if (this == &other) return *this;
  capacity_ = other.capacity_;
  buffer_ = NewBuffer(other.reserved_);
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
    fresh = NewBuffer(reserved);
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

HistoryPoint& RatingHistory::Append() {
  if (size_ >= capacity_) {
    Reallocate(reserved_, /*thin=*/true);
  } else if (size_ == reserved_) {  // grow, never past the capacity
    Reallocate(std::min(capacity_, std::max<size_t>(4, 2 * size_)), /*thin=*/false);
  }
  return buffer_[size_++];
}

}  // namespace ratings
