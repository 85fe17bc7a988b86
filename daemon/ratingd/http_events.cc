#include "daemon/ratingd/http_events.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "civetweb.h"
#include "daemon/ratingd/event_stream.h"

namespace ratingd {
namespace {

using Steady = std::chrono::steady_clock;

bool Write(mg_connection* conn, absl::string_view text) {
  return mg_write(conn, text.data(), text.size()) == static_cast<int>(text.size());
}

}  // namespace

bool EventStreams::Serve(mg_connection* conn, const Query& query,
                         std::optional<std::string> last_event_id) {
  if (open_.fetch_add(1) >= options_.max_streams || stopping_.load()) {
    open_.fetch_sub(1);
    return false;
  }
  if (metrics_ != nullptr) metrics_->event_streams().Increment();
  mg_printf(conn,
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n");
  Stream(conn, query, std::move(last_event_id));
  if (metrics_ != nullptr) metrics_->event_streams().Decrement();
  open_.fetch_sub(1);
  return true;
}

void EventStreams::Stream(mg_connection* conn, const Query& query,
                          std::optional<std::string> last_event_id) {
  EventStream stream(query, std::move(last_event_id));
  const Steady::duration interval = absl::ToChronoNanoseconds(options_.interval);
  const Steady::duration keep_alive = absl::ToChronoNanoseconds(options_.keep_alive);
  const Steady::duration poll = absl::ToChronoNanoseconds(kStopPoll);
  uint64_t generation = views_->generation();
  Steady::time_point last_write = Steady::now();
  Steady::time_point last_event = last_write - interval;  // the first is due at once
  bool pending = true;  // views newer than the last look, not yet looked at
  while (!stopping_.load()) {
    const Steady::time_point now = Steady::now();
    if (pending && now >= last_event + interval) {
      pending = false;
      if (std::optional<std::string> event = stream.Next(*views_->Get(), *config_, cache_)) {
        if (!Write(conn, *event)) return;
        last_event = last_write = now;
      }
      continue;
    }
    if (now >= last_write + keep_alive) {
      if (!Write(conn, EventStream::kKeepAlive)) return;
      last_write = now;
    }
    Steady::time_point deadline = std::min(last_write + keep_alive, now + poll);
    if (pending) deadline = std::min(deadline, last_event + interval);
    const uint64_t seen = views_->WaitNewer(generation, deadline);
    if (seen != generation) {
      generation = seen;
      pending = true;
    }
  }
}

}  // namespace ratingd
