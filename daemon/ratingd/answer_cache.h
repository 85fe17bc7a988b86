// Rendered leaderboard answers, kept while their leaderboard lives (docs/ARCHITECTURE.md
// §3). A view's leaderboard never changes once published, so the JSON answer for one
// leaderboard object, `limit` and `owner` is rendered once and then copied: the HTTP threads
// and the event streams that ask for the same view share it. Thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/mutex.h"
#include "ratingd/v1/delta.pb.h"

namespace ratingd {

class AnswerCache {
 public:
  // At most `capacity` answers are kept; past it, those of freed leaderboards are dropped
  // first, then all.
  explicit AnswerCache(size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

  // The answer for (board, limit, owner): the cached one, or render()'s, which is cached if
  // its status is 200. render runs outside the lock; two threads may both render the same
  // answer, and both get it.
  QueryReply Answer(const std::shared_ptr<const v1::Leaderboard>& board, size_t limit, bool owner,
                    absl::FunctionRef<QueryReply()> render);

  size_t size() const;
  size_t renders() const;  // how many times render() ran

  static constexpr size_t kDefaultCapacity = 1024;

 private:
  struct Key {
    const v1::Leaderboard* board;
    size_t limit;
    bool owner;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.board, k.limit, k.owner);
    }
    bool operator==(const Key& o) const {
      return board == o.board && limit == o.limit && owner == o.owner;
    }
  };
  // The board is held weakly: a freed board's entry can never match a later board that
  // happens to get the same address, because lock() then gives null.
  struct Entry {
    std::weak_ptr<const v1::Leaderboard> board;
    std::shared_ptr<const std::string> body;
  };

  void InsertLocked(const Key& key, Entry entry) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t capacity_;
  mutable Mutex mu_;
  absl::flat_hash_map<Key, Entry> entries_ ABSL_GUARDED_BY(mu_);
  size_t renders_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace ratingd
