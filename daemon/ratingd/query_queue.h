// The hand-off between HTTP threads and the consumer thread (one thread owns the pools,
// docs/ARCHITECTURE.md §3): askers enqueue a query and wait for its reply; the owner takes
// the queued queries between records and answers each (now, or later from another thread).
#pragma once

#include <atomic>
#include <deque>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "daemon/ratingd/mutex.h"
#include "daemon/suggest_report.h"
#include "google/protobuf/message.h"
#include "ratings/model.h"

namespace ratingd {

// A read-only query from the HTTP API.
struct Query {
  enum class Kind { kPools, kLeaderboard, kSuggest };
  Kind kind = Kind::kPools;
  std::string pool;
  ratings::Model model = ratings::Model::kElo;  // kLeaderboard
  size_t limit = 0;
  SuggestRequest suggest = {};  // kSuggest
};

struct QueryReply {
  int status = 200;
  std::string body;  // JSON
};

// {"error": message}
QueryReply JsonErrorReply(int status, const std::string& message);
// `message` as deterministic JSON (DeterministicJson); 500 if it cannot be printed.
QueryReply JsonReply(int status, const google::protobuf::Message& message);

// Thread-safe: any thread asks; the owner (the consumer thread) takes.
class QueryQueue {
 public:
  using Pending = std::pair<Query, std::shared_ptr<std::promise<QueryReply>>>;

  // Any thread. Waits at most `timeout`, then answers 503 (the reply, if it comes later,
  // is dropped).
  QueryReply Ask(Query query, absl::Duration timeout);
  // The owner: whether anything is queued (one atomic load; for the hot loop).
  bool pending() const { return pending_.load(std::memory_order_acquire); }
  // The owner: every queued query, oldest first. Each promise must be fulfilled once.
  std::deque<Pending> TakeAll();

 private:
  Mutex mu_;
  std::deque<Pending> queue_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> pending_{false};
};

}  // namespace ratingd
