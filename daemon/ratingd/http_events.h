// The HTTP API's Server-Sent Events streams (docs/CONTRACTS.md §3.3) on civetweb: each
// open stream holds one civetweb thread, which waits on the view store for a newer
// published set and writes what its EventStream says, at most once per interval, with a
// keep-alive comment whenever it has been silent for keep_alive. Streams never touch the
// consumer thread: they read the views, and Publish only wakes them.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

#include "absl/time/time.h"
#include "daemon/ratingd/answer_cache.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/view_store.h"

struct mg_connection;

namespace ratingd {

struct EventOptions {
  absl::Duration interval = absl::Seconds(1);  // --events-interval
  size_t max_streams = 256;                    // --max-event-streams
  // A stream silent this long gets a comment line. A client gone is noticed by the second
  // write after it left, so its slot is free within twice this (and an event).
  absl::Duration keep_alive = absl::Seconds(2);
  // A write that cannot go on this long (the client stopped reading and the socket buffers
  // are full) drops the stream; also civetweb's request_timeout_ms for every request.
  absl::Duration write_timeout = absl::Seconds(10);
};

class EventStreams {
 public:
  // `cache` (may be null) renders the leaderboards once for all streams and requests.
  EventStreams(const ViewStore* views, const DaemonConfig* config, EventOptions options,
               Metrics* metrics, AnswerCache* cache = nullptr)
      : views_(views), config_(config), options_(options), metrics_(metrics), cache_(cache) {}

  // Serves one stream on `conn` (the request was parsed and its pool is known) until the
  // client goes, a write fails or Stop(), and returns true; false at once, having written
  // nothing, if max_streams are open or the streams are stopping.
  bool Serve(mg_connection* conn, const Query& query, std::optional<std::string> last_event_id);
  // Every stream returns within kStopPoll; new ones get 503.
  void Stop() { stopping_.store(true); }
  size_t open() const { return open_.load(); }

  static constexpr absl::Duration kStopPoll = absl::Milliseconds(250);

 private:
  // The stream's loop, once its slot is taken and the headers are sent.
  void Stream(mg_connection* conn, const Query& query, std::optional<std::string> last_event_id);

  const ViewStore* views_;
  const DaemonConfig* config_;
  const EventOptions options_;
  Metrics* metrics_;    // may be null
  AnswerCache* cache_;  // may be null
  std::atomic<size_t> open_{0};
  std::atomic<bool> stopping_{false};
};

}  // namespace ratingd
