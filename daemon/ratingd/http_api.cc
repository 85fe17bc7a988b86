#include "daemon/ratingd/http_api.h"

#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "CivetServer.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "daemon/ratingd/agent_answer.h"
#include "daemon/ratingd/view_answers.h"
#include "daemon/ratingd/web_assets.h"
#include "ratings/active/suggest.h"
#include "ratings/model.h"

namespace ratingd {
namespace {

constexpr char kPoolsPrefix[] = "/v1/pools/";
constexpr char kSuggestSuffix[] = "/suggest";
constexpr char kEventsSuffix[] = "/events";
constexpr char kAgentsInfix[] = "/agents/";

// The page's own files only, and nothing it does not ask for: no inline script or style
// attribute runs, and no other origin is reached.
constexpr char kPageHeaders[] =
    "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'\r\nX-Content-Type-Options: nosniff\r\n";

// civetweb's thread types: 0 the master, 1 a worker, 2 an internal one.
constexpr int kWorkerThread = 1;

// Runs on each civetweb thread as it starts (ARCHITECTURE.md §3, BENCHMARKS.md §9). Workers
// take:
// - the scheduling policy SCHED_BATCH: a worker woken for an answer then never preempts the
//   running thread (the consumer thread, most of the time) but waits for a free CPU or the
//   next tick; under 16 looping clients and 50 streams the consumer thread kept more of its
//   CPU, and the throughput with clients rose from 0.75-0.85 to 0.90-0.95 of that without;
// - the nice value the server's user context points to;
// - the timer slack HttpApi::kWorkerTimerSlackNs, so that the budget's sleeps (ReadBudget) of
//   several workers end on one timer interrupt instead of one each: an idle ratingd's CPU per
//   budgeted answer fell by about an eighth.
// Linux applies each to the calling thread only; a failure leaves it as it is.
void* SetUpWorker(const struct mg_context* ctx, int thread_type) {
  const auto* server = static_cast<const CivetServer*>(mg_get_user_data(ctx));
  if (thread_type == kWorkerThread && server != nullptr) {
    const struct sched_param batch = {.sched_priority = 0};
    sched_setscheduler(0, SCHED_BATCH, &batch);
    const int nice = *static_cast<const int*>(server->getUserContext());
    if (nice != 0) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice);
    prctl(PR_SET_TIMERSLACK, HttpApi::kWorkerTimerSlackNs);
  }
  return nullptr;
}

// One write per answer, header and body together. The connection stays open for the
// client's next request (HTTP/1.1 keep-alive, ARCHITECTURE.md §3): Content-Length ends
// each answer.
void Reply(struct mg_connection* conn, int status, std::string_view type, std::string_view body,
           std::string_view headers = "") {
  const char* reason = status == 200   ? "OK"
                       : status == 400 ? "Bad Request"
                       : status == 404 ? "Not Found"
                       : status == 409 ? "Conflict"
                       : status == 429 ? "Too Many Requests"
                       : status == 503 ? "Service Unavailable"
                                       : "Error";
  const auto view = [](std::string_view v) { return absl::string_view(v.data(), v.size()); };
  const std::string answer =
      absl::StrCat("HTTP/1.1 ", status, " ", reason, "\r\nContent-Type: ", view(type),
                   "\r\nContent-Length: ", body.size(), "\r\nCache-Control: no-store\r\n",
                   view(headers), "\r\n", view(body));
  mg_write(conn, answer.data(), answer.size());
}

void ReplyJson(struct mg_connection* conn, const QueryReply& reply, std::string_view headers = "") {
  Reply(conn, reply.status, "application/json", reply.body + "\n", headers);
}

}  // namespace

absl::StatusOr<Query> ParseLeaderboardRequest(const std::string& path, const std::string& model,
                                              const std::string& limit, const std::string& suffix) {
  if (!absl::StartsWith(path, kPoolsPrefix) || !absl::EndsWith(path, suffix) ||
      path.size() <= std::strlen(kPoolsPrefix) + suffix.size()) {
    return absl::NotFoundError(
        absl::StrCat("use /v1/pools/{pool}", suffix, "?model=elo|sco|ml|glicko2[&limit=N]"));
  }
  Query q;
  q.kind = Query::Kind::kLeaderboard;
  q.pool = path.substr(std::strlen(kPoolsPrefix),
                       path.size() - std::strlen(kPoolsPrefix) - suffix.size());
  const std::optional<ratings::Model> parsed = ratings::ParseModel(model);
  if (!parsed.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("model must be elo, sco, ml or glicko2 (got '", model, "')"));
  }
  q.model = *parsed;
  if (!limit.empty()) {
    uint64_t n = 0;
    if (!absl::SimpleAtoi(limit, &n)) {
      return absl::InvalidArgumentError(
          absl::StrCat("limit must be a non-negative integer (got '", limit, "')"));
    }
    q.limit = static_cast<size_t>(n);
  }
  return q;
}

absl::Status ParseIncludeInactive(const std::string& value, Query& query) {
  if (value.empty() || value == "false") return absl::OkStatus();
  if (value != "true") {
    return absl::InvalidArgumentError(
        absl::StrCat("include_inactive must be true or false (got '", value, "')"));
  }
  query.include_inactive = true;
  return absl::OkStatus();
}

absl::StatusOr<Query> ParseAgentRequest(const std::string& path, const std::string& model) {
  const size_t at = path.find(kAgentsInfix, std::strlen(kPoolsPrefix));
  if (!absl::StartsWith(path, kPoolsPrefix) || at == std::string::npos ||
      at == std::strlen(kPoolsPrefix) || at + std::strlen(kAgentsInfix) == path.size()) {
    return absl::NotFoundError("use /v1/pools/{pool}/agents/{agent}?model=elo|sco|ml|glicko2");
  }
  Query q;
  q.kind = Query::Kind::kAgent;
  q.pool = path.substr(std::strlen(kPoolsPrefix), at - std::strlen(kPoolsPrefix));
  q.agent = path.substr(at + std::strlen(kAgentsInfix));
  const std::optional<ratings::Model> parsed = ratings::ParseModel(model);
  if (!parsed.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("model must be elo, sco, ml or glicko2 (got '", model, "')"));
  }
  q.model = *parsed;
  return q;
}

absl::StatusOr<Query> ParseSuggestRequest(const std::string& path, const std::string& strategy,
                                          const std::string& n, const std::string& exploration,
                                          const std::string& seed) {
  if (!absl::StartsWith(path, kPoolsPrefix) || !absl::EndsWith(path, kSuggestSuffix) ||
      path.size() <= std::strlen(kPoolsPrefix) + std::strlen(kSuggestSuffix)) {
    return absl::NotFoundError(
        "use /v1/pools/{pool}/suggest?strategy=uniform|ucb|ml[&n=10][&exploration=0.1][&seed=S]");
  }
  Query q;
  q.kind = Query::Kind::kSuggest;
  q.pool = path.substr(std::strlen(kPoolsPrefix),
                       path.size() - std::strlen(kPoolsPrefix) - std::strlen(kSuggestSuffix));
  const std::optional<ratings::active::SuggestStrategy> parsed =
      ratings::active::ParseSuggestStrategy(strategy);
  if (!parsed.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("strategy must be uniform, ucb or ml (got '", strategy, "')"));
  }
  q.suggest.strategy = *parsed;
  if (!n.empty()) {
    uint64_t count = 0;
    if (!absl::SimpleAtoi(n, &count) || count < 1) {
      return absl::InvalidArgumentError(absl::StrCat("n must be an integer >= 1 (got '", n, "')"));
    }
    q.suggest.n = static_cast<size_t>(std::min<uint64_t>(count, ratings::active::kMaxSuggestions));
  }
  if (!exploration.empty()) {
    double e = 0;
    if (!absl::SimpleAtod(exploration, &e) || !ratings::active::CheckExploration(e).ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("exploration must be a number in [0, 1] (got '", exploration, "')"));
    }
    q.suggest.exploration = e;
  }
  if (!seed.empty() && !absl::SimpleAtoi(seed, &q.suggest.seed)) {
    return absl::InvalidArgumentError(
        absl::StrCat("seed must be a non-negative 64-bit integer (got '", seed, "')"));
  }
  return q;
}

class HttpApi::Handler : public CivetHandler {
 public:
  Handler(const HttpSources& sources, EventStreams* events, AnswerCache* answers,
          ReadBudget* budget)
      : sources_(sources), events_(events), answers_(answers), budget_(budget) {}

  bool handleGet(CivetServer* /*server*/, struct mg_connection* conn) override {
    const mg_request_info* info = mg_get_request_info(conn);
    const std::string path = info->local_uri ? info->local_uri : "";
    // A path with dot segments (civetweb decodes, then removes them) is no path of ours,
    // whatever it would resolve to.
    if (info->local_uri_raw == nullptr || path != info->local_uri_raw) {
      ReplyJson(conn, JsonErrorReply(404, "no such path"));
    } else if (const WebAsset* asset = FindWebAsset(path); asset != nullptr) {
      Reply(conn, 200, WebAssetType(asset->path), asset->bytes, kPageHeaders);
    } else if (path == "/healthz") {
      Reply(conn, 200, "text/plain", "ok\n");
    } else if (path == "/readyz") {
      const auto [ready, why_not] = sources_.readiness->Get();
      Reply(conn, ready ? 200 : 503, "text/plain",
            ready ? "ready\n" : absl::StrCat("not ready: ", why_not, "\n"));
    } else if (absl::EndsWith(path, kEventsSuffix)) {
      Answer(conn, path);  // the event streams have their own bound (--max-event-streams)
    } else if (Admit(conn)) {
      Answer(conn, path);
      TakeNextTurn(conn);
    }
    return true;
  }

  // A new connection holds no turn of the budget.
  static int InitConnection(const struct mg_connection* /*conn*/, void** conn_data) {
    *conn_data = nullptr;
    return 0;
  }

 private:
  // Whether the connection holds a turn of the budget, taken and waited for after its last
  // answer (TakeNextTurn): the connection's data points at kTurnHeld, or is null.
  static constexpr char kTurnHeld = 1;
  static bool HoldsTurn(const struct mg_connection* conn) {
    return mg_get_user_connection_data(conn) == &kTurnHeld;
  }
  static void SetHoldsTurn(const struct mg_connection* conn, bool held) {
    mg_set_user_connection_data(conn, held ? const_cast<char*>(&kTurnHeld) : nullptr);
  }

  // Waits for the request's turn in the budget (ReadBudget), or refuses it with 429: false.
  // A connection that holds a turn (TakeNextTurn) spends it instead.
  bool Admit(struct mg_connection* conn) {
    if (HoldsTurn(conn)) {
      SetHoldsTurn(conn, false);
      return true;
    }
    const std::optional<absl::Duration> wait = budget_->Take();
    if (!wait.has_value()) {
      if (sources_.metrics != nullptr) sources_.metrics->Throttled(/*refused=*/true).Increment();
      ReplyJson(conn,
                JsonErrorReply(
                    429, absl::StrCat("over this instance's budget of ", budget_->options().rate,
                                      " answers a second (--http-max-rps); retry later")),
                "Retry-After: 1\r\n");
      return false;
    }
    if (*wait > absl::ZeroDuration()) {
      if (sources_.metrics != nullptr) sources_.metrics->Throttled(/*refused=*/false).Increment();
      absl::SleepFor(*wait);
    }
    return true;
  }

  // After an answer on a connection kept alive, while the budget makes requests wait: takes
  // the turn of the connection's next request now and waits for it here, before civetweb
  // reads that request. A client that loops has sent it by the time the turn comes, so the
  // worker wakes once per answer (the timer) instead of twice (the timer, then the socket),
  // which halves what a budgeted answer costs in switches (ARCHITECTURE.md §3). A turn free
  // now, or more than max_wait away, is not taken: the next request takes its own.
  void TakeNextTurn(struct mg_connection* conn) {
    const char* connection = mg_get_header(conn, "Connection");
    if (connection != nullptr && absl::EqualsIgnoreCase(connection, "close")) return;
    const std::optional<absl::Duration> wait = budget_->TakeAheadIfWaiting();
    if (!wait.has_value()) return;
    if (sources_.metrics != nullptr) sources_.metrics->Throttled(/*refused=*/false).Increment();
    absl::SleepFor(*wait);
    SetHoldsTurn(conn, true);
  }

  // The /v1/ requests, and the 404 of any other path.
  void Answer(struct mg_connection* conn, const std::string& path) {
    if (path == "/v1/pools" || path == "/v1/pools/") {
      Send(conn, PoolsAnswer(*sources_.views->Get()));
    } else if (path == "/v1/events") {
      StartStream(conn, Query{});
    } else if (absl::StartsWith(path, kPoolsPrefix) &&
               path.find(kAgentsInfix, std::strlen(kPoolsPrefix)) != std::string::npos) {
      AnswerAgent(conn, path);
    } else if (absl::EndsWith(path, kEventsSuffix)) {
      AnswerPoolEvents(conn, path);
    } else if (absl::EndsWith(path, kSuggestSuffix)) {
      AnswerSuggest(conn, path);
    } else {
      AnswerLeaderboard(conn, path);
    }
  }

  static void ReplyQueryError(struct mg_connection* conn, const absl::Status& status) {
    ReplyJson(conn,
              JsonErrorReply(absl::IsNotFound(status) ? 404 : 400, std::string(status.message())));
  }

  void AnswerAgent(struct mg_connection* conn, const std::string& path) {
    std::string model;
    CivetServer::getParam(conn, "model", model);
    absl::StatusOr<Query> query = ParseAgentRequest(path, model);
    if (!query.ok()) return ReplyQueryError(conn, query.status());
    Send(conn, AgentAnswer(*sources_.views->Get(), *query, *sources_.config));
  }

  void AnswerPoolEvents(struct mg_connection* conn, const std::string& path) {
    std::string model, limit;
    CivetServer::getParam(conn, "model", model);
    CivetServer::getParam(conn, "limit", limit);
    absl::StatusOr<Query> query = ParseLeaderboardRequest(path, model, limit, kEventsSuffix);
    if (!query.ok()) return ReplyQueryError(conn, query.status());
    // Unknown pool, model off, ml refused: the leaderboard's error, before any stream.
    const QueryReply now =
        LeaderboardAnswer(*sources_.views->Get(), *query, *sources_.config, answers_);
    if (now.status != 200) {
      ReplyJson(conn, now);
    } else {
      StartStream(conn, *query);
    }
  }

  void AnswerSuggest(struct mg_connection* conn, const std::string& path) {
    std::string strategy, n, exploration, seed;
    CivetServer::getParam(conn, "strategy", strategy);
    CivetServer::getParam(conn, "n", n);
    CivetServer::getParam(conn, "exploration", exploration);
    CivetServer::getParam(conn, "seed", seed);
    absl::StatusOr<Query> query = ParseSuggestRequest(path, strategy, n, exploration, seed);
    if (!query.ok()) return ReplyQueryError(conn, query.status());
    Send(conn, SuggestAnswer(*sources_.views->Get(), *query, *sources_.config, sources_.metrics));
  }

  void AnswerLeaderboard(struct mg_connection* conn, const std::string& path) {
    std::string model, limit, include;
    CivetServer::getParam(conn, "model", model);
    CivetServer::getParam(conn, "limit", limit);
    CivetServer::getParam(conn, "include_inactive", include);
    absl::StatusOr<Query> query = ParseLeaderboardRequest(path, model, limit);
    if (query.ok()) {
      if (absl::Status s = ParseIncludeInactive(include, *query); !s.ok()) query = s;
    }
    if (!query.ok()) return ReplyQueryError(conn, query.status());
    Send(conn, LeaderboardAnswer(*sources_.views->Get(), *query, *sources_.config, answers_));
  }

 private:
  // An answer within the budget: the turns its size counts beyond the first are taken
  // before it is written (ReadBudget::Charge), so that they delay the next answers.
  void Send(struct mg_connection* conn, const QueryReply& reply) {
    budget_->Charge(reply.body.size() + 1);  // + the "\n" ReplyJson ends it with
    ReplyJson(conn, reply);
  }

  void StartStream(struct mg_connection* conn, const Query& query) {
    const char* last = mg_get_header(conn, "Last-Event-ID");
    if (!events_->Serve(conn, query,
                        last != nullptr ? std::optional<std::string>(last) : std::nullopt)) {
      ReplyJson(conn, JsonErrorReply(503, "too many event streams open; try again later"));
    }
  }

  HttpSources sources_;
  EventStreams* events_;
  AnswerCache* answers_;
  ReadBudget* budget_;
};

absl::StatusOr<std::unique_ptr<HttpApi>> HttpApi::Start(const std::string& address,
                                                        const HttpSources& sources,
                                                        const EventOptions& events, int worker_nice,
                                                        const ReadBudgetOptions& budget) {
  if (worker_nice < 0 || worker_nice > kMaxWorkerNice) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http-nice must be in [0, ", kMaxWorkerNice, "] (got ", worker_nice, ")"));
  }
  std::unique_ptr<HttpApi> api(new HttpApi());
  api->worker_nice_ = worker_nice;
  api->events_ = std::make_unique<EventStreams>(sources.views, sources.config, events,
                                                sources.metrics, &api->answers_);
  api->budget_ = std::make_unique<ReadBudget>(budget, &api->clock_);
  api->handler_ =
      std::make_unique<Handler>(sources, api->events_.get(), &api->answers_, api->budget_.get());
  // request_timeout_ms bounds a write too: a stream whose client stops reading is dropped
  // once its socket buffers are full and a write has waited that long.
  const std::vector<std::string> options = {
      "listening_ports",       address,
      "num_threads",           std::to_string(events.max_streams + kRequestThreads),
      "request_timeout_ms",    std::to_string(absl::ToInt64Milliseconds(events.write_timeout)),
      "enable_keep_alive",     "yes",
      "keep_alive_timeout_ms", std::to_string(kKeepAliveMs)};
  try {
    CivetCallbacks callbacks{};
    callbacks.init_thread = SetUpWorker;
    callbacks.init_connection = Handler::InitConnection;
    api->server_ = std::make_unique<CivetServer>(options, &callbacks, &api->worker_nice_);
  } catch (const CivetException& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http-address=", address, ": cannot listen (", e.what(), ")"));
  }
  api->server_->addHandler("/", api->handler_.get());
  const std::vector<int> ports = api->server_->getListeningPorts();
  api->port_ = ports.empty() ? 0 : ports[0];
  return api;
}

HttpApi::~HttpApi() {
  if (events_) events_->Stop();
  if (server_) server_->close();
}

}  // namespace ratingd
