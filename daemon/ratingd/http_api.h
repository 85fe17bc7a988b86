// ratingd's read-only HTTP API: /healthz, /readyz, /v1/pools and
// /v1/pools/{pool}/leaderboard?model=elo|sco|ml[&limit=N], on civetweb. Queries are
// answered by the consumer thread through the query queue; /readyz reads the readiness.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "daemon/ratingd/query_queue.h"
#include "daemon/ratingd/readiness.h"

class CivetServer;

namespace ratingd {

class HttpApi {
 public:
  // Listens on `address` (host:port; port 0 picks a free one). `queries` and `readiness`
  // must outlive this.
  static absl::StatusOr<std::unique_ptr<HttpApi>> Start(const std::string& address,
                                                        QueryQueue* queries,
                                                        const Readiness* readiness);
  ~HttpApi();
  int port() const { return port_; }

 private:
  HttpApi() = default;
  class Handler;
  std::unique_ptr<Handler> handler_;
  std::unique_ptr<CivetServer> server_;
  int port_ = 0;
};

// Parses the path and query of a leaderboard request ("/v1/pools/chess/leaderboard",
// "model=elo&limit=10"); InvalidArgument naming the problem. Exposed for tests.
absl::StatusOr<Query> ParseLeaderboardRequest(const std::string& path, const std::string& model,
                                              const std::string& limit);

}  // namespace ratingd
