#include "daemon/ratingd/answer_cache.h"

#include "absl/container/flat_hash_map.h"

namespace ratingd {

QueryReply AnswerCache::Answer(const std::shared_ptr<const v1::Leaderboard>& board, size_t limit,
                               bool owner, absl::FunctionRef<QueryReply()> render) {
  const Key key{board.get(), limit, owner};
  {
    MutexLock lock(&mu_);
    const auto found = entries_.find(key);
    // The caller holds `board`, so an entry whose board still locks to this address is for
    // this very object.
    if (found != entries_.end() && found->second.board.lock() == board) {
      return {.status = 200, .body = *found->second.body};
    }
    ++renders_;
  }
  QueryReply reply = render();
  if (reply.status == 200) {
    auto body = std::make_shared<const std::string>(reply.body);
    MutexLock lock(&mu_);
    InsertLocked(key, {.board = board, .body = std::move(body)});
  }
  return reply;
}

void AnswerCache::InsertLocked(const Key& key, Entry entry) {
  if (entries_.size() >= capacity_ && !entries_.contains(key)) {
    absl::erase_if(entries_, [](const auto& e) { return e.second.board.expired(); });
    if (entries_.size() >= capacity_) entries_.clear();
  }
  entries_.insert_or_assign(key, std::move(entry));
}

size_t AnswerCache::size() const {
  MutexLock lock(&mu_);
  return entries_.size();
}

size_t AnswerCache::renders() const {
  MutexLock lock(&mu_);
  return renders_;
}

}  // namespace ratingd
