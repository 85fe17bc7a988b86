#include "daemon/ratingd/query_queue.h"

#include "daemon/deterministic_json.h"
#include "daemon/pool_report.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

QueryReply JsonErrorReply(int status, const std::string& message) {
  google::protobuf::Struct body;
  (*body.mutable_fields())["error"].set_string_value(message);
  absl::StatusOr<std::string> json = DeterministicJson(body);
  return {status, json.ok() ? *json : R"({"error": "?"})"};
}

QueryReply JsonReply(int status, const google::protobuf::Message& message) {
  absl::StatusOr<std::string> json = DeterministicJson(message);
  if (!json.ok()) return {500, R"({"error": "cannot print the reply"})"};
  return {status, *json};
}

QueryReply QueryQueue::Ask(Query query, absl::Duration timeout) {
  auto promise = std::make_shared<std::promise<QueryReply>>();
  std::future<QueryReply> future = promise->get_future();
  {
    MutexLock lock(&mu_);
    queue_.emplace_back(std::move(query), std::move(promise));
    pending_.store(true, std::memory_order_release);
  }
  if (future.wait_for(absl::ToChronoNanoseconds(timeout)) != std::future_status::ready) {
    return JsonErrorReply(503, "ratingd is busy; try again");
  }
  return future.get();
}

std::deque<QueryQueue::Pending> QueryQueue::TakeAll() {
  std::deque<Pending> out;
  MutexLock lock(&mu_);
  out.swap(queue_);
  pending_.store(false, std::memory_order_release);
  return out;
}

}  // namespace ratingd
