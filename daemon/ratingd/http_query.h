// A read-only query of the HTTP API (docs/CONTRACTS.md §3.2) and its JSON reply, as the
// answers read from the views (view_answers.h) give it.
#pragma once

#include <cstddef>
#include <string>

#include "daemon/suggest_report.h"
#include "google/protobuf/message.h"
#include "ratings/model.h"

namespace ratingd {

struct Query {
  enum class Kind { kPools, kLeaderboard, kSuggest, kAgent };
  Kind kind = Kind::kPools;
  std::string pool;
  ratings::Model model = ratings::Model::kElo;  // kLeaderboard, kAgent
  std::string agent;                            // kAgent
  size_t limit = 0;
  bool include_inactive = false;  // kLeaderboard: ?include_inactive=true
  SuggestRequest suggest = {};    // kSuggest
};

struct QueryReply {
  int status = 200;
  std::string body;  // JSON
};

// {"error": message}
QueryReply JsonErrorReply(int status, const std::string& message);
// `message` as deterministic JSON (DeterministicJson); 500 if it cannot be printed.
QueryReply JsonReply(int status, const google::protobuf::Message& message);

}  // namespace ratingd
