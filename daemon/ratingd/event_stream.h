// What one Server-Sent Events stream of the HTTP API sends (docs/CONTRACTS.md §3.3), as
// text, from the published views: `event: leaderboard` for one pool and model, or
// `event: pools` for the pool list; the transport (civetweb, the throttle, keep-alives) is
// http_events.cc's. Any thread; one object per stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "daemon/ratingd/answer_cache.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/view_store.h"

namespace ratingd {

class EventStream {
 public:
  // `query`: a leaderboard query (its pool, model and limit), or Kind::kPools for the pool
  // list. `last_event_id`: the client's Last-Event-ID header, if it sent one.
  EventStream(Query query, std::optional<std::string> last_event_id)
      : query_(std::move(query)), last_id_(std::move(last_event_id)) {}

  // The event to send for `views`, if its state is newer than the last one sent (or than
  // Last-Event-ID): a leaderboard whose `sequence` is greater (its id), or a pool list that
  // differs (its id: a digest of the document). Nothing while the pool is not in the views,
  // its model is off or ml is refused for it. The leaderboard is rendered through `cache`
  // (may be null).
  std::optional<std::string> Next(const Views& views, const DaemonConfig& config,
                                  AnswerCache* cache = nullptr);

  // A comment line, which keeps an idle stream open.
  static constexpr char kKeepAlive[] = ":\n\n";

 private:
  Query query_;
  std::optional<std::string> last_id_;
};

// "event: NAME\nid: ID\ndata: LINE\n...\n\n": every line of `data` on a data: line of its
// own.
std::string FormatEvent(const std::string& name, const std::string& id, const std::string& data);

// The id of a pool-list event: FNV-1a (64 bits) of the document, 16 hex digits.
std::string DocumentDigest(const std::string& document);

}  // namespace ratingd
