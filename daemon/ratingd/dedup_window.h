// The de-duplication window of one pool (docs/CONTRACTS.md §1): the last `capacity` game ids, so a
// result delivered twice (producer retries, replays upstream) is applied once.
//
// The ids are kept in segments of segment_ids() consecutive ids, numbered from 0 in the order
// the pool filled them. A full segment is sealed and never changes again, so a snapshot shares
// it instead of copying it, and the snapshots topic holds it as a record of its own, written
// once (docs/ARCHITECTURE.md §5.1): a snapshot then costs the ids that arrived since the last
// one, not the whole window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ratingd {

// Not thread-safe; owned by its pool. Sealed segments are immutable and may be read from
// other threads through the shared pointers sealed() hands out.
class DedupWindow {
 public:
  // Ids per segment, at most; min(this, capacity) in a window.
  static constexpr size_t kSegmentIds = 4096;
  // A segment is sealed before an id that would take its ids past this many bytes, so that
  // its record stays small (an id longer than this is a segment of its own).
  static constexpr size_t kSegmentBytes = 256 * 1024;

  // The ids of one segment, oldest first, copied into blocks of memory that never move, so
  // that a view of an id stays valid as long as its segment: one allocation per block
  // instead of one per id longer than a short string. A copy has blocks of its own.
  class Segment {
   public:
    Segment() = default;
    explicit Segment(uint64_t number) : seq(number) {}
    Segment(const Segment& other);
    Segment& operator=(const Segment& other);
    // A moved-from segment is empty.
    Segment(Segment&& other) noexcept;
    Segment& operator=(Segment&& other) noexcept;

    void Add(absl::string_view id);
    const std::vector<absl::string_view>& ids() const { return ids_; }
    size_t IdBytes() const { return bytes_; }  // the ids' lengths added up

    uint64_t seq = 0;

   private:
    // The first block's size; each next one is twice the last, up to the largest (or the
    // id's size, for an id longer than that).
    static constexpr size_t kFirstBlock = 256;
    static constexpr size_t kLargestBlock = 16 * 1024;

    std::vector<absl::string_view> ids_;
    std::vector<std::unique_ptr<char[]>> blocks_;
    char* free_ = nullptr;  // in the last block
    size_t free_bytes_ = 0;
    size_t last_block_ = 0;  // the last block's size
    size_t bytes_ = 0;
  };
  using SegmentPtr = std::shared_ptr<const Segment>;

  // capacity >= 1.
  explicit DedupWindow(size_t capacity);
  DedupWindow(const DedupWindow&) = delete;
  DedupWindow& operator=(const DedupWindow&) = delete;

  // True if `game_id` is not in the window, and remembers it (forgetting the oldest id
  // once full); false for a repeat, which changes nothing.
  bool Insert(absl::string_view game_id);
  bool Contains(absl::string_view game_id) const { return ids_.contains(game_id); }
  // Insert of an id known not to be in the window (Contains was false): one lookup less.
  void InsertAbsent(absl::string_view game_id);
  size_t size() const { return size_; }
  size_t segment_ids() const { return segment_ids_; }

  // The window is: the ids of sealed(), less the first front_skip() of the first, then
  // open(), the segment still filling, numbered open_seq().
  const std::deque<SegmentPtr>& sealed() const { return sealed_; }
  size_t front_skip() const { return front_skip_; }
  const std::vector<absl::string_view>& open() const { return open_->ids(); }
  uint64_t open_seq() const { return open_->seq; }
  // All ids, oldest first (a copy: for tests and tools).
  std::vector<std::string> Ids() const;

  // Bookkeeping of the snapshots topic (docs/ARCHITECTURE.md §5.2). TakeUnwritten: the
  // oldest sealed segments not yet written to it, as many as fit `max_bytes` of ids (at
  // least one, if there is any), from now on counted as written. TakeForgotten: the numbers
  // of the sealed segments forgotten since the last call, whose records are to be deleted:
  // every one, written or not, since one written ahead of a snapshot by an earlier run of
  // this state (before a crash or an abort) is not counted as written by this one.
  std::vector<SegmentPtr> TakeUnwritten(size_t max_bytes = SIZE_MAX);
  bool HasUnwritten() const { return !sealed_.empty() && sealed_.back()->seq >= written_until_; }
  std::vector<uint64_t> TakeForgotten();

  // Restores a window from a snapshot: its sealed segments (consecutive numbers, counted as
  // written), the count of ids of the first already forgotten, and the ids of the open
  // segment, numbered `open_seq` (sealed as they fill it). A format 1 snapshot has every id
  // in `open` and open_seq 0. InvalidArgument if these do not make a window of this
  // capacity (numbers not consecutive, an empty segment, a skip past the first segment, a
  // repeated id, more ids than the capacity).
  absl::Status Restore(std::vector<Segment> sealed, size_t front_skip, uint64_t open_seq,
                       const std::vector<std::string>& open);

 private:
  void Clear(uint64_t open_seq);
  void Append(absl::string_view game_id);  // to the open segment, sealing it once full
  void Seal();
  void ForgetOldest();

  size_t capacity_;
  size_t segment_ids_;
  std::deque<SegmentPtr> sealed_;
  std::shared_ptr<Segment> open_;
  size_t open_bytes_ = 0;
  size_t front_skip_ = 0;
  size_t size_ = 0;
  uint64_t written_until_ = 0;  // sealed segments numbered below it are in the topic
  std::vector<uint64_t> forgotten_;
  absl::flat_hash_set<absl::string_view> ids_;  // views into the segments' strings
};

}  // namespace ratingd
