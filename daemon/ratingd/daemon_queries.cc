// Daemon: answering the HTTP API's queries on the consumer thread (ml solves on a copy, on
// the solver thread).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/daemon.h"
#include "daemon/ratingd/log.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/model.h"

namespace ratingd {
namespace {

QueryReply JsonReply(int status, const google::protobuf::Message& message) {
  absl::StatusOr<std::string> json = DeterministicJson(message);
  if (!json.ok()) return {500, R"({"error": "cannot print the reply"})"};
  return {status, *json};
}

}  // namespace

void Daemon::ServeQueries() {
  for (auto& [query, promise] : queries_.TakeAll()) {
    if (query.kind == Query::Kind::kPools) {
      google::protobuf::Struct body;
      google::protobuf::ListValue& list = *(*body.mutable_fields())["pools"].mutable_list_value();
      for (const auto& [p, state] : partitions_) {
        for (const auto& [name, pool] : state.pools) {
          google::protobuf::Struct& item = *list.add_values()->mutable_struct_value();
          auto& f = *item.mutable_fields();
          f["pool"].set_string_value(name);
          f["partition"].set_number_value(p);
          f["agents"].set_number_value(static_cast<double>(pool->pool().index().size()));
          f["results"].set_number_value(static_cast<double>(pool->pool().results()));
        }
      }
      promise->set_value(JsonReply(200, body));
      continue;
    }
    auto where = pool_partition_.find(query.pool);
    if (where == pool_partition_.end() || !partitions_.count(where->second)) {
      std::vector<int32_t> held;
      for (const auto& [p, state] : partitions_) held.push_back(p);
      promise->set_value(JsonErrorReply(
          404, absl::StrCat("pool '", query.pool, "' is not held by this instance (it holds ",
                            "partitions [", absl::StrJoin(held, ","), "] of ",
                            config_.results_topic, "): unknown, or its partition is assigned ",
                            "to another instance of group '", config_.group, "'")));
      continue;
    }
    const LivePool& live = *partitions_.at(where->second).pools.at(query.pool);
    const ratings::Pool& pool = live.pool();
    const bool on = query.model == ratings::Model::kElo   ? pool.elo() != nullptr
                    : query.model == ratings::Model::kSco ? pool.sco() != nullptr
                                                          : pool.ml() != nullptr;
    if (!on) {
      promise->set_value(JsonErrorReply(
          404, absl::StrCat("model '", ratings::ModelName(query.model), "' is off")));
      continue;
    }
    if (query.model != ratings::Model::kMl) {
      promise->set_value(JsonReply(200, live.Report(query.model, query.limit)));
      continue;
    }
    if (pool.ml()->refused()) {
      promise->set_value(JsonErrorReply(
          409, absl::StrCat("ml is off for pool '", query.pool, "': ", pool.index().size(),
                            " agents exceed max_agents=", pool.ml()->options().max_agents)));
      continue;
    }
    // Solve a copy off the consumer thread, as `ratingctl rate --method ml` does.
    auto copy = std::make_shared<ratings::Pool>(pool);
    const size_t limit = query.limit;
    std::shared_ptr<std::promise<QueryReply>> reply_to = promise;
    solver_->Submit([copy, limit, reply_to] {
      // Seed 0, as LivePool::Report: ratingd has no seed.
      absl::StatusOr<v1::RatingReport> report = PoolReport(ratings::Model::kMl, *copy, limit, 0);
      reply_to->set_value(report.ok()
                              ? JsonReply(200, *report)
                              : JsonErrorReply(500, std::string(report.status().message())));
    });
  }
}

}  // namespace ratingd
