// The de-duplication window of one pool (docs/CONTRACTS.md §1): the last `capacity` game ids, so a
// result delivered twice (producer retries, replays upstream) is applied once.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace ratingd {

// Not thread-safe; owned by its pool. Memory: two copies' worth of the ids it holds.
class DedupWindow {
 public:
  // capacity >= 1.
  explicit DedupWindow(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}
  DedupWindow(const DedupWindow&) = delete;
  DedupWindow& operator=(const DedupWindow&) = delete;

  // True if `game_id` is not in the window, and remembers it (forgetting the oldest id
  // once full); false for a repeat, which changes nothing.
  bool Insert(absl::string_view game_id);
  bool Contains(absl::string_view game_id) const { return ids_.contains(game_id); }
  // Insert of an id known not to be in the window (Contains was false): one lookup less.
  void InsertAbsent(absl::string_view game_id);

  // The ids, oldest first, without a copy (snapshots copy them once, into the message);
  // Restore of them gives an equal window.
  const std::deque<std::string>& ids() const { return order_; }
  void Restore(const std::vector<std::string>& oldest_first);
  size_t size() const { return order_.size(); }

 private:
  size_t capacity_;
  std::deque<std::string> order_;  // a deque never moves its elements on push/pop at the ends
  absl::flat_hash_set<absl::string_view> ids_;  // views into order_
};

}  // namespace ratingd
