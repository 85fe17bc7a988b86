#include "daemon/ratingd/dedup_window.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ratingd {

DedupWindow::DedupWindow(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)),
      segment_ids_(std::min(capacity_, kSegmentIds)),
      open_(std::make_shared<Segment>()) {}

bool DedupWindow::Insert(absl::string_view game_id) {
  if (ids_.contains(game_id)) return false;
  InsertAbsent(game_id);
  return true;
}

void DedupWindow::InsertAbsent(absl::string_view game_id) {
  Append(game_id);
  while (size_ > capacity_) ForgetOldest();
}

void DedupWindow::Append(absl::string_view game_id) {
  if (!open_->ids().empty() && open_bytes_ + game_id.size() > kSegmentBytes) Seal();
  open_->Add(game_id);
  ids_.insert(open_->ids().back());
  open_bytes_ += game_id.size();
  ++size_;
  if (open_->ids().size() == segment_ids_) Seal();
}

void DedupWindow::Seal() {
  const uint64_t next = open_->seq + 1;
  sealed_.push_back(std::move(open_));
  open_ = std::make_shared<Segment>(next);
  open_bytes_ = 0;
}

// The open segment holds fewer than capacity ids, so an overfull window has a sealed one.
void DedupWindow::ForgetOldest() {
  const Segment& first = *sealed_.front();
  ids_.erase(first.ids()[front_skip_]);
  --size_;
  if (++front_skip_ < first.ids().size()) return;
  forgotten_.push_back(first.seq);
  sealed_.pop_front();
  front_skip_ = 0;
}

std::vector<std::string> DedupWindow::Ids() const {
  std::vector<std::string> ids;
  ids.reserve(size_);
  for (size_t s = 0; s < sealed_.size(); ++s) {
    const std::vector<absl::string_view>& segment = sealed_[s]->ids();
    for (size_t i = s == 0 ? front_skip_ : 0; i < segment.size(); ++i) ids.emplace_back(segment[i]);
  }
  for (absl::string_view id : open_->ids()) ids.emplace_back(id);
  return ids;
}

DedupWindow::Segment::Segment(const Segment& other) : seq(other.seq) {
  for (absl::string_view id : other.ids_) Add(id);
}

DedupWindow::Segment& DedupWindow::Segment::operator=(const Segment& other) {
  if (this != &other) *this = Segment(other);
  return *this;
}

DedupWindow::Segment::Segment(Segment&& other) noexcept { *this = std::move(other); }

DedupWindow::Segment& DedupWindow::Segment::operator=(Segment&& other) noexcept {
  seq = other.seq;
  ids_ = std::exchange(other.ids_, {});
  blocks_ = std::exchange(other.blocks_, {});
  free_ = std::exchange(other.free_, nullptr);
  free_bytes_ = std::exchange(other.free_bytes_, 0);
  last_block_ = std::exchange(other.last_block_, 0);
  bytes_ = std::exchange(other.bytes_, 0);
  return *this;
}

void DedupWindow::Segment::Add(absl::string_view id) {
  if (id.size() > free_bytes_) {
    last_block_ = blocks_.empty() ? kFirstBlock : std::min(2 * last_block_, kLargestBlock);
    const size_t size = std::max(last_block_, id.size());
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    free_ = blocks_.back().get();
    free_bytes_ = size;
  }
  std::copy(id.begin(), id.end(), free_);
  ids_.emplace_back(free_, id.size());
  free_ += id.size();
  free_bytes_ -= id.size();
  bytes_ += id.size();
}

std::vector<DedupWindow::SegmentPtr> DedupWindow::TakeUnwritten(size_t max_bytes) {
  std::vector<SegmentPtr> unwritten;
  size_t bytes = 0;
  for (const SegmentPtr& s : sealed_) {
    if (s->seq < written_until_) continue;
    bytes += s->IdBytes();
    if (!unwritten.empty() && bytes > max_bytes) break;
    unwritten.push_back(s);
    written_until_ = s->seq + 1;
  }
  return unwritten;
}

std::vector<uint64_t> DedupWindow::TakeForgotten() { return std::exchange(forgotten_, {}); }

void DedupWindow::Clear(uint64_t open_seq) {
  ids_.clear();
  sealed_.clear();
  open_ = std::make_shared<Segment>(open_seq);
  open_bytes_ = 0;
  front_skip_ = 0;
  size_ = 0;
  forgotten_.clear();
}

absl::Status DedupWindow::Restore(std::vector<Segment> sealed, size_t front_skip, uint64_t open_seq,
                                  const std::vector<std::string>& open) {
  Clear(open_seq);
  const auto refuse = [this](absl::string_view why) {
    Clear(0);
    return absl::InvalidArgumentError(absl::StrCat("the de-duplication window ", why));
  };
  if (sealed.size() > open_seq) return refuse("numbers its segments below 0");
  if (!sealed.empty() && front_skip >= sealed.front().ids().size()) {
    return refuse("skips a whole segment");
  }
  if (sealed.empty() && front_skip != 0) return refuse("skips ids of no segment");
  uint64_t seq = open_seq - sealed.size();
  for (size_t s = 0; s < sealed.size(); ++s, ++seq) {
    Segment& segment = sealed[s];
    if (segment.seq != seq) return refuse("has segments that are not consecutive");
    if (segment.ids().empty()) return refuse("has an empty segment");
    auto kept = std::make_shared<Segment>(std::move(segment));
    for (size_t i = s == 0 ? front_skip : 0; i < kept->ids().size(); ++i) {
      if (!ids_.insert(kept->ids()[i]).second) return refuse("repeats a game id");
      ++size_;
    }
    sealed_.push_back(std::move(kept));
  }
  front_skip_ = front_skip;
  written_until_ = open_seq;
  for (const std::string& id : open) {
    if (ids_.contains(id)) return refuse("repeats a game id");
    Append(id);
  }
  if (size_ > capacity_) return refuse("holds more ids than --dedup-window");
  return absl::OkStatus();
}

}  // namespace ratingd
