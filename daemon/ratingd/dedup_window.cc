#include "daemon/ratingd/dedup_window.h"

namespace ratingd {

bool DedupWindow::Insert(absl::string_view game_id) {
  if (ids_.contains(game_id)) return false;
  InsertAbsent(game_id);
  return true;
}

void DedupWindow::InsertAbsent(absl::string_view game_id) {
  if (order_.size() == capacity_) {
    ids_.erase(order_.front());
    order_.pop_front();
  }
  order_.emplace_back(game_id);
  ids_.insert(order_.back());
}

void DedupWindow::Restore(const std::vector<std::string>& oldest_first) {
  order_.clear();
  ids_.clear();
  for (const std::string& id : oldest_first) Insert(id);
}

}  // namespace ratingd
