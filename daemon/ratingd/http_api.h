// ratingd's read-only HTTP API: /healthz, /readyz, /v1/pools,
// /v1/pools/{pool}/leaderboard?model=elo|sco|ml|glicko2[&limit=N],
// /v1/pools/{pool}/suggest?strategy=uniform|ucb|ml[&n=10][&exploration=0.1][&seed=S], and the
// event streams /v1/events and /v1/pools/{pool}/events?model=elo|sco|ml|glicko2[&limit=N], on
// civetweb.
// Every answer is read from the published views (view_store.h), never waiting for the
// consumer thread; /readyz reads the readiness.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "daemon/ratingd/answer_cache.h"
#include "daemon/ratingd/clock.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/http_events.h"
#include "daemon/ratingd/http_query.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/read_budget.h"
#include "daemon/ratingd/readiness.h"
#include "daemon/ratingd/view_store.h"

class CivetServer;

namespace ratingd {

// The budget's unit of answer size (--http-max-rps): an answer counts once per started 16 KiB
// of its body. A leaderboard of 10 entries is one; the whole of a 400-agent pool's, about 70 KB
// with its intervals, five: the copying and sending that grow with the size are charged too.
inline constexpr size_t kAnswerBudgetUnitBytes = 16 * 1024;

// What the API reads; each must outlive it.
struct HttpSources {
  const ViewStore* views = nullptr;
  const Readiness* readiness = nullptr;
  const DaemonConfig* config = nullptr;
  Metrics* metrics = nullptr;  // suggestions counted; may be null
};

class HttpApi {
 public:
  // Listens on `address` (host:port; port 0 picks a free one), with a thread per possible
  // event stream besides kRequestThreads for the other requests. The threads that answer
  // run under SCHED_BATCH at nice `worker_nice` (0..19, --http-nice; ARCHITECTURE.md §3)
  // with a timer slack of kWorkerTimerSlackNs; the rest of the process keeps its own. Every request
  // but the event streams takes its turn in `budget` (--http-max-rps; none by default here).
  static absl::StatusOr<std::unique_ptr<HttpApi>> Start(const std::string& address,
                                                        const HttpSources& sources,
                                                        const EventOptions& events = {},
                                                        int worker_nice = 0,
                                                        const ReadBudgetOptions& budget = {});
  // Ends the event streams, then stops the server.
  ~HttpApi();
  int port() const { return port_; }

  static constexpr size_t kRequestThreads = 8;
  // How long an idle keep-alive connection holds its thread waiting for the next request.
  static constexpr int kKeepAliveMs = 500;
  static constexpr int kMaxWorkerNice = 19;
  // How late the kernel may end a worker's sleep (PR_SET_TIMERSLACK; Linux's default is
  // 50 us): the budget's sleeps of several workers then end on one timer interrupt.
  static constexpr unsigned long kWorkerTimerSlackNs = 1'000'000;

 private:
  HttpApi() = default;
  class Handler;
  AnswerCache answers_;  // before the streams and the handler, which use it
  SystemClock clock_;
  std::unique_ptr<ReadBudget> budget_;
  int worker_nice_ = 0;
  std::unique_ptr<EventStreams> events_;
  std::unique_ptr<Handler> handler_;
  std::unique_ptr<CivetServer> server_;
  int port_ = 0;
};

// Parses the path and query of a leaderboard request ("/v1/pools/chess/leaderboard",
// "model=elo&limit=10"), or with `suffix` "/events" of a pool's event stream (the same
// query); NotFound for another path, InvalidArgument naming the problem. Exposed for tests.
absl::StatusOr<Query> ParseLeaderboardRequest(const std::string& path, const std::string& model,
                                              const std::string& limit,
                                              const std::string& suffix = "/leaderboard");

// Parses a suggest request ("/v1/pools/chess/suggest", strategy, n, exploration, seed as
// given; empty = default: n 10, exploration 0.1, seed 0). n above
// ratings::active::kMaxSuggestions is clamped to it. NotFound for another path;
// InvalidArgument naming the parameter otherwise. Exposed for tests.
// ?include_inactive=true|false (empty: false) into query->include_inactive;
// InvalidArgument for anything else.
absl::Status ParseIncludeInactive(const std::string& value, Query& query);

// GET /v1/pools/{pool}/agents/{agent}?model=M: NotFound for a path of another shape,
// InvalidArgument for an unknown model.
absl::StatusOr<Query> ParseAgentRequest(const std::string& path, const std::string& model);

absl::StatusOr<Query> ParseSuggestRequest(const std::string& path, const std::string& strategy,
                                          const std::string& n, const std::string& exploration,
                                          const std::string& seed);

}  // namespace ratingd
