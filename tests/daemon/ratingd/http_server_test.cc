// The HTTP server on 127.0.0.1 (http_api.h, http_events.h, web_assets.h): views published by
// hand (held_pools.h), read by a minimal HTTP client on a socket. For the event streams
// (what each event holds is event_stream_test.cc's): the wire format, the throttle,
// keep-alives, Last-Event-ID, the stream limit and its slots, and the errors before a
// stream; for the page: its files, byte for byte, with their headers, and nothing else.
// Bounded: every read waits at most a few seconds.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "daemon/ratingd/http_api.h"
#include "daemon/ratingd/metrics.h"
#include "daemon/ratingd/readiness.h"
#include "daemon/ratingd/web_assets.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/daemon/ratingd/held_pools.h"

namespace ratingd::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Steady = std::chrono::steady_clock;

// One HTTP/1.1 GET on a fresh connection; the response is read as it arrives.
class Client {
 public:
  Client(int port, const std::string& target, const std::string& headers = "") {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    const int buffer = 4096;  // small: a client that stops reading fills it soon
    setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof(buffer));
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    Send(target, headers);
  }
  // Another GET on the same connection.
  void Send(const std::string& target, const std::string& headers = "") {
    const std::string request =
        absl::StrCat("GET ", target, " HTTP/1.1\r\nHost: 127.0.0.1\r\n", headers, "\r\n");
    EXPECT_EQ(send(fd_, request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
  }
  ~Client() { Close(); }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }
  // Reads until `text` has arrived (true) or `timeout` passes or the server closes (false);
  // with `from`, text that arrived from that offset of received() on.
  bool ReadUntil(const std::string& text, std::chrono::milliseconds timeout,
                 std::optional<size_t> from = std::nullopt) {
    const Steady::time_point deadline = Steady::now() + timeout;
    while (received_.find(text, from.value_or(consumed_)) == std::string::npos) {
      if (Receive(deadline) != Read::kData) return false;
    }
    return true;
  }
  // Reads until the server closes the connection (true) or `timeout` passes (false).
  bool ReadToEnd(std::chrono::milliseconds timeout) {
    const Steady::time_point deadline = Steady::now() + timeout;
    for (;;) {
      const Read r = Receive(deadline);
      if (r != Read::kData) return r == Read::kClosed;
    }
  }
  // The events received since the last call (text up to each blank line), and marks them read.
  std::vector<std::string> TakeEvents() {
    std::vector<std::string> events;
    const size_t body = received_.find("\r\n\r\n");
    if (body == std::string::npos) return events;
    consumed_ = std::max(consumed_, body + 4);
    for (size_t end; (end = received_.find("\n\n", consumed_)) != std::string::npos;) {
      events.push_back(received_.substr(consumed_, end + 2 - consumed_));
      consumed_ = end + 2;
    }
    return events;
  }
  const std::string& received() const { return received_; }

 private:
  enum class Read { kData, kClosed, kFailed };  // kFailed: an error, or the deadline passed
  // One recv() into received_, waiting until `deadline` for data.
  Read Receive(Steady::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Steady::now());
    pollfd p = {fd_, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) {
      return Read::kFailed;
    }
    char buffer[65536];
    const ssize_t n = recv(fd_, buffer, sizeof(buffer), 0);
    if (n == 0) return Read::kClosed;
    if (n < 0) return Read::kFailed;
    received_.append(buffer, static_cast<size_t>(n));
    return Read::kData;
  }

  int fd_ = -1;
  std::string received_;
  size_t consumed_ = 0;
};

// The leaderboard events of `events` (keep-alive comments left out).
std::vector<std::string> Leaderboards(const std::vector<std::string>& events) {
  std::vector<std::string> out;
  for (const std::string& e : events) {
    if (absl::StartsWith(e, "event: leaderboard\n")) out.push_back(e);
  }
  return out;
}

struct Server {
  explicit Server(EventOptions events, int worker_nice = 0, ReadBudgetOptions budget = {}) {
    LivePool& chess = pools.Hold(0, "chess");
    pools.Play(chess, "a", "b");
    pools.Commit("chess", absl::FromUnixSeconds(1));
    readiness.Set(true, "");
    api = *HttpApi::Start(
        "127.0.0.1:0",
        {.views = &pools.store, .readiness = &readiness, .config = &config, .metrics = &metrics},
        events, worker_nice, budget);
  }
  // One more result in chess, committed.
  void Play() {
    pools.Play(*pools.registry.FindPool("chess"), "b", "a");
    pools.Commit("chess", absl::FromUnixSeconds(2));
  }
  Pools pools;
  Readiness readiness;
  DaemonConfig config = Config();
  Metrics metrics{100};
  std::unique_ptr<HttpApi> api;
};

EventOptions Fast() {
  EventOptions options;
  options.interval = absl::Milliseconds(50);
  options.keep_alive = absl::Milliseconds(200);
  options.max_streams = 4;
  return options;
}

TEST(HttpEventsTest, StreamsTheCurrentViewThenEachNewerOne) {
  Server s(Fast());
  Client c(s.api->port(), "/v1/pools/chess/events?model=elo&limit=1");
  ASSERT_TRUE(c.ReadUntil("\n\n", std::chrono::seconds(5))) << c.received();
  EXPECT_THAT(c.received(), StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(c.received(), HasSubstr("Content-Type: text/event-stream\r\n"));
  std::vector<std::string> first = Leaderboards(c.TakeEvents());
  ASSERT_EQ(first.size(), 1u);
  EXPECT_THAT(first[0], StartsWith("event: leaderboard\nid: 1\ndata: {"));
  EXPECT_THAT(first[0], HasSubstr(R"("sequence":1,)"));
  s.Play();
  ASSERT_TRUE(c.ReadUntil("id: 2\n", std::chrono::seconds(5))) << c.received();
  ASSERT_TRUE(c.ReadUntil("\n\n", std::chrono::seconds(5)));
  std::vector<std::string> second = Leaderboards(c.TakeEvents());
  ASSERT_EQ(second.size(), 1u);
  EXPECT_THAT(second[0], HasSubstr(R"("sequence":2,)"));
  // Idle: keep-alive comments, at most keep_alive apart.
  ASSERT_TRUE(c.ReadUntil(":\n\n", std::chrono::seconds(2))) << c.received();
  EXPECT_EQ(s.metrics.event_streams().Value(), 1);
}

TEST(HttpEventsTest, NewerViewsWithinTheIntervalFoldIntoOneEventOfTheLatest) {
  EventOptions options = Fast();
  options.interval = absl::Milliseconds(500);
  Server s(options);
  Client c(s.api->port(), "/v1/pools/chess/events?model=sco");
  ASSERT_TRUE(c.ReadUntil("id: 1\n", std::chrono::seconds(5)));
  for (int i = 0; i < 5; ++i) s.Play();  // sequences 2..6 within the interval
  ASSERT_TRUE(c.ReadUntil("id: 6\n", std::chrono::seconds(5))) << c.received();
  ASSERT_TRUE(c.ReadUntil("\n\n", std::chrono::seconds(5)));
  const std::vector<std::string> events = Leaderboards(c.TakeEvents());
  ASSERT_GE(events.size(), 2u);
  EXPECT_LE(events.size(), 3u);  // the first, maybe one mid-burst, the latest
  EXPECT_THAT(events.back(), StartsWith("event: leaderboard\nid: 6\n"));
}

TEST(HttpEventsTest, LastEventIdOfTheCurrentViewWaitsForANewerOne) {
  Server s(Fast());
  Client c(s.api->port(), "/v1/pools/chess/events?model=elo", "Last-Event-ID: 1\r\n");
  EXPECT_FALSE(c.ReadUntil("event:", std::chrono::milliseconds(1000))) << c.received();
  EXPECT_THAT(c.received(), HasSubstr(":\n\n"));  // kept alive meanwhile
  s.Play();
  EXPECT_TRUE(c.ReadUntil("event: leaderboard\nid: 2\n", std::chrono::seconds(5))) << c.received();
}

TEST(HttpEventsTest, PoolListStreams) {
  Server s(Fast());
  Client c(s.api->port(), "/v1/events");
  ASSERT_TRUE(c.ReadUntil("\n\n", std::chrono::seconds(5))) << c.received();
  EXPECT_THAT(c.received(), HasSubstr("event: pools\nid: "));
  EXPECT_THAT(c.received(),
              HasSubstr(R"(data: {"pools":[{"agents":2,"models":["elo","sco"],"owner":true,)"));
  s.Play();
  EXPECT_TRUE(c.ReadUntil(R"("results":2})", std::chrono::seconds(5))) << c.received();
}

TEST(HttpEventsTest, BeyondTheLimitIs503AndAClosedStreamFreesItsSlot) {
  EventOptions options = Fast();
  options.max_streams = 2;
  Server s(options);
  auto first = std::make_unique<Client>(s.api->port(), "/v1/events");
  Client second(s.api->port(), "/v1/pools/chess/events?model=elo");
  ASSERT_TRUE(first->ReadUntil("\n\n", std::chrono::seconds(5)));
  ASSERT_TRUE(second.ReadUntil("\n\n", std::chrono::seconds(5)));
  Client third(s.api->port(), "/v1/events");
  ASSERT_TRUE(third.ReadUntil("}", std::chrono::seconds(5))) << third.received();
  EXPECT_THAT(third.received(), StartsWith("HTTP/1.1 503 "));
  EXPECT_THAT(third.received(), HasSubstr(R"({"error":"too many event streams open)"));
  // Ordinary requests still have their threads.
  Client pools(s.api->port(), "/v1/pools");
  EXPECT_TRUE(pools.ReadUntil("\"pools\"", std::chrono::seconds(5))) << pools.received();
  first.reset();  // closed: noticed by the second keep-alive after (within 2 × 200 ms)
  const Steady::time_point deadline = Steady::now() + std::chrono::seconds(5);
  while (s.metrics.event_streams().Value() > 1 && Steady::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(s.metrics.event_streams().Value(), 1);
  Client again(s.api->port(), "/v1/events");
  EXPECT_TRUE(again.ReadUntil("event: pools\n", std::chrono::seconds(5))) << again.received();
}

// A client that stops reading: once the socket buffers are full, the next write waits
// write_timeout and the stream is dropped (its slot freed), while the client still holds
// the connection open.
TEST(HttpEventsTest, AClientThatStopsReadingIsDropped) {
  EventOptions options = Fast();
  options.write_timeout = absl::Milliseconds(300);
  Server s(options);
  LivePool& big = s.pools.Hold(1, "big");
  for (int i = 0; i < 1000; ++i) {  // 2,000 agents: each event is about 300 KB
    s.pools.Play(big, absl::StrCat("agent-", 2 * i), absl::StrCat("agent-", 2 * i + 1));
  }
  s.pools.Commit("big", absl::FromUnixSeconds(2));
  Client idle(s.api->port(), "/v1/pools/big/events?model=elo");  // never read after this
  const Steady::time_point deadline = Steady::now() + std::chrono::seconds(30);
  int published = 0;
  while (s.metrics.event_streams().Value() == 0 && Steady::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the stream opens
  }
  ASSERT_EQ(s.metrics.event_streams().Value(), 1);
  while (s.metrics.event_streams().Value() > 0 && Steady::now() < deadline) {
    s.pools.Play(big, "agent-0", "agent-1");  // a newer view, so an event, every 60 ms
    s.pools.Commit("big", absl::FromUnixSeconds(3));
    ++published;
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
  }
  EXPECT_EQ(s.metrics.event_streams().Value(), 0) << published << " views published";
  // The slot is free: a new stream gets its first event.
  Client again(s.api->port(), "/v1/events");
  EXPECT_TRUE(again.ReadUntil("event: pools\n", std::chrono::seconds(5))) << again.received();
}

TEST(HttpEventsTest, ErrorsComeBeforeAnyStream) {
  Server s(Fast());
  for (const auto& [target, status] : std::vector<std::pair<std::string, std::string>>{
           {"/v1/pools/go/events?model=elo", "404"},
           {"/v1/pools/chess/events?model=ml", "404"},  // ml off
           {"/v1/pools/chess/events?model=glicko", "400"},
           {"/v1/pools/chess/events?model=elo&limit=-1", "400"},
           {"/v1/pools//events?model=elo", "404"}}) {
    Client c(s.api->port(), target);
    ASSERT_TRUE(c.ReadUntil("}", std::chrono::seconds(5))) << target;
    EXPECT_THAT(c.received(), StartsWith("HTTP/1.1 " + status + " ")) << target;
    EXPECT_THAT(c.received(), HasSubstr("application/json")) << target;
  }
  EXPECT_EQ(s.metrics.event_streams().Value(), 0);
}

// A thread's timer slack in nanoseconds, from /proc (the kernel's own account; reading
// another thread's needs CAP_SYS_NICE, which the CI's root has), or -1.
long TimerSlackNs(const std::string& tid) {
  std::ifstream in("/proc/" + tid + "/timerslack_ns");
  long slack = -1;
  in >> slack;
  return in ? slack : -1;
}

// With --http-nice, the threads that answer run at that nice value, all under SCHED_BATCH and
// with the workers' timer slack; the thread that started the server (like the consumer
// thread) keeps its own policy, priority and slack. Read from /proc, sched_getscheduler and
// getpriority, not from our code.
TEST(HttpApiThreadsTest, WorkersAnswerAtTheirNiceValueAndTheRestKeepTheirs) {
  constexpr int kNice = 19;
  const long own_slack = TimerSlackNs(std::to_string(gettid()));
  ASSERT_NE(own_slack, static_cast<long>(HttpApi::kWorkerTimerSlackNs));  // else no test
  Server s(Fast(), kNice);
  const size_t workers = Fast().max_streams + HttpApi::kRequestThreads;
  ASSERT_EQ(sched_getscheduler(0), SCHED_OTHER);  // else no test
  size_t lowered = 0, slackened = 0, batched = 0;
  for (int attempt = 0;
       attempt < 100 && (lowered < workers || slackened < workers || batched < workers);
       ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    lowered = slackened = batched = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      std::ifstream comm(task.path() / "comm");
      std::string name;
      std::getline(comm, name);
      if (name != "civetweb-worker") continue;
      const std::string tid = task.path().filename().string();
      errno = 0;
      const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(std::stoul(tid)));
      if (errno == 0 && nice == kNice) ++lowered;
      if (TimerSlackNs(tid) == static_cast<long>(HttpApi::kWorkerTimerSlackNs)) ++slackened;
      if (sched_getscheduler(static_cast<pid_t>(std::stoul(tid))) == SCHED_BATCH) ++batched;
    }
  }
  EXPECT_EQ(lowered, workers);
  EXPECT_EQ(slackened, workers);
  EXPECT_EQ(batched, workers);
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);
  EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), 0);
  EXPECT_EQ(TimerSlackNs(std::to_string(gettid())), own_slack);
  Client c(s.api->port(), "/v1/pools/chess/leaderboard?model=elo");
  ASSERT_TRUE(c.ReadUntil("}", std::chrono::seconds(5)));
  EXPECT_THAT(c.received(), StartsWith("HTTP/1.1 200 "));
  // Out of range: refused, naming the flag.
  Pools pools;
  Readiness readiness;
  const DaemonConfig config = Config();
  const auto refused = HttpApi::Start(
      "127.0.0.1:0", {.views = &pools.store, .readiness = &readiness, .config = &config}, Fast(),
      20);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("--http-nice must be in [0, 19] (got 20)"));
}

// Answers keep the connection open for the next request (HTTP/1.1's default), each ended by
// its Content-Length; a client that asks for "Connection: close" gets it, and an idle
// connection is closed after HttpApi::kKeepAliveMs.
TEST(HttpApiKeepAliveTest, OneConnectionCarriesManyAnswersUntilIdleOrAskedToClose) {
  Server s(Fast());
  Client c(s.api->port(), "/v1/pools/chess/leaderboard?model=elo");
  ASSERT_TRUE(c.ReadUntil("}\n", std::chrono::seconds(5)));
  const std::string first = c.received();
  EXPECT_THAT(first, StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(first, ::testing::Not(HasSubstr("Connection: close")));
  const size_t head = first.find("\r\n\r\n") + 4;
  EXPECT_THAT(first, HasSubstr(absl::StrCat("Content-Length: ", first.size() - head, "\r\n")));
  c.Send("/healthz");
  ASSERT_TRUE(c.ReadUntil("ok\n", std::chrono::seconds(5)));
  EXPECT_EQ(c.received().substr(first.size()),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n"
            "Cache-Control: no-store\r\n\r\nok\n");
  // Idle: closed by the server after its keep-alive time, not long after.
  const Steady::time_point idle = Steady::now();
  ASSERT_TRUE(c.ReadToEnd(std::chrono::seconds(5)));
  EXPECT_GE(Steady::now() - idle, std::chrono::milliseconds(HttpApi::kKeepAliveMs / 2));
  // Asked to close: closed after the first answer, at once.
  Client once(s.api->port(), "/healthz", "Connection: close\r\n");
  ASSERT_TRUE(once.ReadToEnd(std::chrono::milliseconds(HttpApi::kKeepAliveMs / 2)));
  EXPECT_THAT(once.received(), ::testing::EndsWith("\r\n\r\nok\n"));
}

// --http-max-rps: a budget of one answer every 100 s with no wait allowed: the first answer
// is served, the next request on the same connection gets 429 with Retry-After and a JSON
// error, and is counted; probes and event streams are not budgeted.
TEST(HttpApiBudgetTest, OverTheBudgetIs429AndProbesAndStreamsAreNotCounted) {
  Server s(Fast(), 0, {.rate = 0.01, .burst = 1, .max_wait = absl::ZeroDuration()});
  Client c(s.api->port(), "/v1/pools/chess/leaderboard?model=elo");
  ASSERT_TRUE(c.ReadUntil("}\n", std::chrono::seconds(5)));
  EXPECT_THAT(c.received(), StartsWith("HTTP/1.1 200 OK\r\n"));
  const size_t first = c.received().size();
  c.Send("/v1/pools");
  ASSERT_TRUE(c.ReadUntil("retry later\"}\n", std::chrono::seconds(5)));
  const std::string refused = c.received().substr(first);
  EXPECT_THAT(refused, StartsWith("HTTP/1.1 429 Too Many Requests\r\n"));
  EXPECT_THAT(refused, HasSubstr("Retry-After: 1\r\n"));
  EXPECT_THAT(refused, HasSubstr("budget of 0.01 answers a second (--http-max-rps)"));
  EXPECT_EQ(s.metrics.Throttled(/*refused=*/true).Value(), 1);
  Client probe(s.api->port(), "/healthz", "Connection: close\r\n");
  ASSERT_TRUE(probe.ReadToEnd(std::chrono::seconds(5)));
  EXPECT_THAT(probe.received(), StartsWith("HTTP/1.1 200 OK\r\n"));
  Client stream(s.api->port(), "/v1/pools/chess/events?model=elo");
  ASSERT_TRUE(stream.ReadUntil("event: leaderboard", std::chrono::seconds(5)));
  EXPECT_EQ(s.metrics.Throttled(/*refused=*/true).Value(), 1);
}

// A client that loops on one connection, at 10 answers a second with no burst: after each
// answer the connection takes its next request's turn and waits for it before reading that
// request (a worker then wakes once per answer), and the request spends that turn instead of
// taking another. So every answer after the first waited exactly one turn: 3 waits (a
// request that took a turn of its own besides would make it 6; the last request asks to
// close, so no turn is taken after it), and the four answers took at least three turns.
TEST(HttpApiBudgetTest, AConnectionThatLoopsWaitsOneTurnPerAnswer) {
  Server s(Fast(), 0, {.rate = 10, .burst = 1, .max_wait = absl::Seconds(1)});
  const Steady::time_point start = Steady::now();
  Client c(s.api->port(), "/v1/pools/chess/leaderboard?model=elo");
  size_t read = 0;
  for (int i = 0; i < 4; ++i) {
    if (i > 0) {
      c.Send("/v1/pools/chess/leaderboard?model=elo", i == 3 ? "Connection: close\r\n" : "");
    }
    ASSERT_TRUE(c.ReadUntil("}\n", std::chrono::seconds(5), read)) << i;
    EXPECT_THAT(c.received().substr(read), StartsWith("HTTP/1.1 200 OK\r\n")) << i;
    read = c.received().size();
  }
  EXPECT_GE(Steady::now() - start, std::chrono::milliseconds(300));
  EXPECT_EQ(s.metrics.Throttled(/*refused=*/false).Value(), 3);
  EXPECT_EQ(s.metrics.Throttled(/*refused=*/true).Value(), 0);
}

// A burst of 3 at one answer per 100 s: without a unit of size, three answers in a row and
// the fourth refused; with a unit of 1 byte, the first answer (a leaderboard of more than 3
// bytes) counts more than the whole burst, and the next request is refused.
TEST(HttpApiBudgetTest, ABigAnswerCountsOncePerStartedUnit) {
  for (const size_t unit : {size_t{0}, size_t{1}}) {
    Server s(Fast(), 0,
             {.rate = 0.01, .burst = 3, .max_wait = absl::ZeroDuration(), .unit_bytes = unit});
    const int answered = unit == 0 ? 3 : 1;
    for (int i = 0; i < answered; ++i) {
      Client c(s.api->port(), "/v1/pools/chess/leaderboard?model=elo");
      ASSERT_TRUE(c.ReadUntil("}\n", std::chrono::seconds(5))) << unit;
      EXPECT_THAT(c.received(), StartsWith("HTTP/1.1 200 OK\r\n")) << unit << " " << i;
    }
    Client refused(s.api->port(), "/v1/pools");
    ASSERT_TRUE(refused.ReadUntil("}\n", std::chrono::seconds(5))) << unit;
    EXPECT_THAT(refused.received(), StartsWith("HTTP/1.1 429 Too Many Requests\r\n")) << unit;
    EXPECT_EQ(s.metrics.Throttled(/*refused=*/true).Value(), 1) << unit;
  }
}

TEST(HttpPageTest, ServesThePageFilesWithAPolicyAndNothingElse) {
  Server s(Fast());
  for (const WebAsset& asset : WebAssets()) {
    Client c(s.api->port(), std::string(asset.path), "Connection: close\r\n");
    ASSERT_TRUE(c.ReadUntil("\r\n\r\n", std::chrono::seconds(5))) << asset.path;
    const size_t head = c.received().find("\r\n\r\n") + 4;
    ASSERT_TRUE(c.ReadToEnd(std::chrono::seconds(5))) << asset.path;
    EXPECT_THAT(c.received(), StartsWith("HTTP/1.1 200 OK\r\n")) << asset.path;
    EXPECT_THAT(c.received(), HasSubstr("Content-Security-Policy: default-src 'none'; "
                                        "script-src 'self';"));
    EXPECT_THAT(c.received(), HasSubstr("X-Content-Type-Options: nosniff\r\n"));
    EXPECT_EQ(c.received().substr(head), asset.bytes) << asset.path;
  }
  Client root(s.api->port(), "/");
  ASSERT_TRUE(root.ReadUntil("</html>", std::chrono::seconds(5)));
  EXPECT_THAT(root.received(), HasSubstr("Content-Type: text/html; charset=utf-8\r\n"));
  EXPECT_THAT(root.received(), HasSubstr(R"(<script src="/page.js" defer></script>)"));
  // Paths outside the served files, encoded or not, and the sources' folder: 404.
  for (const std::string target : {"/../index.html", "/%2e%2e/index.html", "/web/page.js",
                                   "/index.html/../page.js/x", "/page.js.map", "/etc/passwd",
                                   "/%2E%2E%2Fetc%2Fpasswd", "/v1/../../page.js", "/./page.js"}) {
    Client c(s.api->port(), target);
    ASSERT_TRUE(c.ReadUntil("\r\n\r\n", std::chrono::seconds(5))) << target;
    const bool not_found = absl::StartsWith(c.received(), "HTTP/1.1 404") ||
                           absl::StartsWith(c.received(), "HTTP/1.1 400");
    EXPECT_TRUE(not_found) << target << ": " << c.received().substr(0, 40);
    EXPECT_THAT(c.received(), ::testing::Not(HasSubstr("use strict"))) << target;
  }
}

}  // namespace
}  // namespace ratingd::testing
