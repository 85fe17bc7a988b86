#include "daemon/ratingd/query_responder.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/pool_report.h"
#include "daemon/suggest_report.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/model.h"

namespace ratingd {
namespace {

bool ModelOn(const ratings::Pool& pool, ratings::Model model) {
  switch (model) {
    case ratings::Model::kElo:
      return pool.elo() != nullptr;
    case ratings::Model::kSco:
      return pool.sco() != nullptr;
    case ratings::Model::kMl:
      return pool.ml() != nullptr;
  }
  return false;
}

// The ml report with its ranking cut to the first `limit` agents (0: all), and its
// extra.lottery to the agents listed, as PoolReport(kMl, pool, limit) gives it.
// Copies only what it keeps (every field of RatingReport): clients polling a large pool
// with a small limit are served
// without copying its whole ranking and lottery each time.
v1::RatingReport Truncated(const v1::RatingReport& full, size_t limit) {
  const int keep = static_cast<int>(limit);
  if (limit == 0 || keep >= full.ranking_size()) return full;
  v1::RatingReport report;
  report.set_method(full.method());
  report.set_agents(full.agents());
  report.set_results(full.results());
  for (int i = 0; i < keep; ++i) *report.add_ranking() = full.ranking(i);
  auto& extra = *report.mutable_extra()->mutable_fields();
  for (const auto& [name, value] : full.extra().fields()) {
    if (name != "lottery") extra[name] = value;
  }
  const auto& lottery = full.extra().fields().at("lottery").struct_value().fields();
  auto& kept = *extra["lottery"].mutable_struct_value()->mutable_fields();
  for (const v1::RankedAgent& r : report.ranking()) kept[r.agent()] = lottery.at(r.agent());
  return report;
}

}  // namespace

void QueryResponder::Serve(QueryQueue& queue) {
  for (auto& [query, promise] : queue.TakeAll()) Answer(query, std::move(promise));
}

QueryReply QueryResponder::Pools() const {
  google::protobuf::Struct body;
  google::protobuf::ListValue& list = *(*body.mutable_fields())["pools"].mutable_list_value();
  for (const auto& [p, state] : registry_->partitions()) {
    for (const auto& [name, pool] : state.pools) {
      google::protobuf::Struct& item = *list.add_values()->mutable_struct_value();
      auto& f = *item.mutable_fields();
      f["pool"].set_string_value(name);
      f["partition"].set_number_value(p);
      f["agents"].set_number_value(static_cast<double>(pool->pool().index().size()));
      f["results"].set_number_value(static_cast<double>(pool->pool().results()));
    }
  }
  return JsonReply(200, body);
}

QueryReply QueryResponder::NotHeld(const Query& query) const {
  return JsonErrorReply(
      404, absl::StrCat("pool '", query.pool, "' is not held by this instance (it holds ",
                        "partitions [", absl::StrJoin(registry_->Held(), ","), "] of ",
                        config_.results_topic, "): unknown, or its partition is assigned ",
                        "to another instance of group '", config_.group, "'"));
}

void QueryResponder::Answer(const Query& query, Reply reply) {
  if (query.kind == Query::Kind::kPools) return reply->set_value(Pools());
  const LivePool* live = registry_->FindPool(query.pool);
  if (live == nullptr) return reply->set_value(NotHeld(query));
  if (query.kind == Query::Kind::kSuggest) return AnswerSuggest(query, *live, std::move(reply));
  const ratings::Pool& pool = live->pool();
  if (!ModelOn(pool, query.model)) {
    return reply->set_value(
        JsonErrorReply(404, absl::StrCat("model '", ratings::ModelName(query.model), "' is off")));
  }
  if (query.model != ratings::Model::kMl) {
    return reply->set_value(JsonReply(200, live->Report(query.model, query.limit)));
  }
  if (pool.ml()->refused()) {
    return reply->set_value(JsonErrorReply(
        409, absl::StrCat("ml is off for pool '", query.pool, "': ", pool.index().size(),
                          " agents exceed max_agents=", pool.ml()->options().max_agents)));
  }
  AnswerMl(query, *live, std::move(reply));
}

void QueryResponder::AnswerSuggest(const Query& query, const LivePool& live, Reply reply) {
  if (query.suggest.strategy != ratings::active::SuggestStrategy::kMl) {
    return reply->set_value(
        SuggestReply(query, SuggestFromPool(query.pool, live.pool(), query.suggest)));
  }
  const ratings::MaximalLottery* ml = live.pool().ml();
  if (ml == nullptr) {
    return reply->set_value(JsonErrorReply(404, "model 'ml' is off: strategy ml needs it"));
  }
  if (ml->refused()) {
    return reply->set_value(JsonErrorReply(
        409, absl::StrCat("ml is off for pool '", query.pool, "': ", live.pool().index().size(),
                          " agents exceed max_agents=", ml->options().max_agents)));
  }
  AnswerMl(query, live, std::move(reply));
}

QueryReply QueryResponder::SuggestReply(const Query& query,
                                        const google::protobuf::Struct& document) {
  QueryReply reply = JsonReply(200, document);
  if (metrics_ != nullptr && reply.status == 200) {
    metrics_->Suggestions(std::string(ratings::active::SuggestStrategyName(query.suggest.strategy)))
        .Increment(static_cast<double>(SuggestionCount(document)));
  }
  return reply;
}

QueryReply QueryResponder::FromMlAnswer(const Query& query, uint64_t results,
                                        const v1::RatingReport& full) {
  if (query.kind != Query::Kind::kSuggest) return JsonReply(200, Truncated(full, query.limit));
  absl::StatusOr<google::protobuf::Struct> document =
      SuggestFromMlReport(query.pool, results, full, query.suggest);
  if (!document.ok()) return JsonErrorReply(500, std::string(document.status().message()));
  return SuggestReply(query, *document);
}

void QueryResponder::AnswerMl(const Query& query, const LivePool& live, Reply reply) {
  std::shared_ptr<const v1::RatingReport> kept;
  uint64_t kept_results = 0;
  {
    MutexLock lock(&mu_);
    auto answer = answers_.find(query.pool);
    if (answer != answers_.end() && (answer->second.results == live.pool().results() ||
                                     clock_->Now() - answer->second.solved_at < kMlAnswerMaxAge)) {
      kept = answer->second.report;
      kept_results = answer->second.results;
    } else if (auto solving = solving_.find(query.pool); solving != solving_.end()) {
      solving->second.push_back({std::move(reply), query});
      return;
    } else if (solving_.size() >= kMaxQueuedSolves) {
      return reply->set_value(JsonErrorReply(
          429, absl::StrCat(kMaxQueuedSolves, " pools' ml solves for HTTP queries are running ",
                            "already; ask again later (the leaderboards topic has every ",
                            "scheduled solve)")));
    } else {
      solving_[query.pool].push_back({std::move(reply), query});
    }
  }
  if (kept) return reply->set_value(FromMlAnswer(query, kept_results, *kept));
  // Solve a copy off the consumer thread, as `ratingctl rate --method ml` does.
  auto copy = std::make_shared<ratings::Pool>(live.pool());
  run_solve_([this, name = query.pool, copy] { Solve(name, *copy); });
}

void QueryResponder::Solve(const std::string& pool, ratings::Pool& copy) {
  // Seed 0, as LivePool::Report: ratingd has no seed.
  absl::StatusOr<v1::RatingReport> solved = PoolReport(ratings::Model::kMl, copy, 0, 0);
  if (solved.ok()) {
    AddUncertainty(ratings::Model::kMl, copy, nullptr, config_.pool.provisional_games,
                   *solved->mutable_ranking());
  }
  std::shared_ptr<const v1::RatingReport> report;
  if (solved.ok()) report = std::make_shared<const v1::RatingReport>(*std::move(solved));
  std::vector<Waiter> waiters;
  {
    MutexLock lock(&mu_);
    if (report) answers_[pool] = {copy.results(), clock_->Now(), report};
    waiters = std::move(solving_[pool]);
    solving_.erase(pool);
  }
  for (Waiter& w : waiters) {
    w.reply->set_value(report ? FromMlAnswer(w.query, copy.results(), *report)
                              : JsonErrorReply(500, std::string(solved.status().message())));
  }
}

}  // namespace ratingd
