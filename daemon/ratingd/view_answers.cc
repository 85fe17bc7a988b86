#include "daemon/ratingd/view_answers.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/suggest_report.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/model.h"

namespace ratingd {

namespace {

// A remote pool's first leaderboard of elo, sco, ml (never null for a listed pool).
const v1::Leaderboard* AnyBoard(const RemoteBoards::Boards& boards) {
  for (const auto& board : boards) {
    if (board != nullptr) return board.get();
  }
  return nullptr;
}

}  // namespace

QueryReply PoolsAnswer(const Views& views) {
  struct Entry {
    int32_t partition;
    const std::string* pool;
    uint64_t agents, results;
    bool owner;
    std::vector<absl::string_view> models;  // answered: on, and ml not refused
  };
  std::vector<Entry> entries;
  entries.reserve(views.in_order.size() + views.remote->pools.size());
  for (const PoolView* view : views.in_order) {
    entries.push_back({view->partition, &view->pool, view->agents, view->results, true, {}});
    for (const ratings::Model model : ratings::kModels) {
      if (view->board(model) == nullptr) continue;
      if (model == ratings::Model::kMl && view->ml_refused) continue;
      entries.back().models.push_back(ratings::ModelName(model));
    }
  }
  for (const auto& [pool, boards] : views.remote->pools) {
    const v1::Leaderboard* board = AnyBoard(boards);
    if (board == nullptr || views.pools.contains(pool)) continue;
    const v1::Leaderboard* counts = boards[0] ? boards[0].get() : board;  // elo's, if any
    entries.push_back({board->partition(), &pool, counts->agents(), counts->results(), false, {}});
    for (const ratings::Model model : ratings::kModels) {
      if (boards[static_cast<size_t>(model)] != nullptr) {
        entries.back().models.push_back(ratings::ModelName(model));
      }
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.partition != b.partition ? a.partition < b.partition : *a.pool < *b.pool;
  });
  google::protobuf::Struct body;
  google::protobuf::ListValue& list = *(*body.mutable_fields())["pools"].mutable_list_value();
  for (const Entry& e : entries) {
    auto& f = *list.add_values()->mutable_struct_value()->mutable_fields();
    f["pool"].set_string_value(*e.pool);
    f["partition"].set_number_value(e.partition);
    f["agents"].set_number_value(static_cast<double>(e.agents));
    f["results"].set_number_value(static_cast<double>(e.results));
    f["owner"].set_bool_value(e.owner);
    google::protobuf::ListValue& models = *f["models"].mutable_list_value();
    for (const absl::string_view model : e.models) {
      models.add_values()->set_string_value(std::string(model));
    }
  }
  return JsonReply(200, body);
}

QueryReply NotHeldAnswer(const std::string& pool, const std::vector<int32_t>& held,
                         const DaemonConfig& config) {
  return JsonErrorReply(
      404, absl::StrCat("pool '", pool, "' is not held by this instance (it holds ", "partitions [",
                        absl::StrJoin(held, ","), "] of ", config.results_topic,
                        "): unknown, or its partition is assigned ",
                        "to another instance of group '", config.group, "'"));
}

namespace {

std::string MlRefused(const PoolView& view) {
  return absl::StrCat("ml is off for pool '", view.pool, "': ", view.agents,
                      " agents exceed max_agents=", view.ml_max_agents);
}

QueryReply ModelOffAnswer(ratings::Model model) {
  return JsonErrorReply(404, absl::StrCat("model '", ratings::ModelName(model), "' is off"));
}

// The suggest document of `view` for query.suggest, with its sequence and committed_at.
// NotFound: ml is off; FailedPrecondition: ml is refused for the pool's size.
absl::StatusOr<google::protobuf::Struct> SuggestDocument(const PoolView& view, const Query& query) {
  if (query.suggest.strategy != ratings::active::SuggestStrategy::kMl) {
    google::protobuf::Struct document = SuggestFromCounts(query.pool,
                                                          {.agents = view.counts->agents,
                                                           .games = view.counts->games,
                                                           .points = view.counts->points,
                                                           .results = view.results},
                                                          query.suggest);
    (*document.mutable_fields())["committed_at"].set_string_value(
        google::protobuf::util::TimeUtil::ToString(
            google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(
                absl::ToUnixMicros(view.committed_at))));
    return document;
  }
  const v1::Leaderboard* board = view.board(ratings::Model::kMl);
  if (board == nullptr) return absl::NotFoundError("model 'ml' is off: strategy ml needs it");
  if (view.ml_refused) return absl::FailedPreconditionError(MlRefused(view));
  // The draws are seeded by the result count the solve saw, as `ratingctl suggest` on those
  // results seeds them; the answer's sequence is the ml leaderboard's (scheduled solves).
  absl::StatusOr<google::protobuf::Struct> document =
      SuggestFromMlReport(query.pool, board->results(), ReportFromBoard(*board, 0), query.suggest);
  if (!document.ok()) return document;
  auto& fields = *document->mutable_fields();
  fields["sequence"].set_number_value(static_cast<double>(board->sequence()));
  fields["committed_at"].set_string_value(
      google::protobuf::util::TimeUtil::ToString(board->committed_at()));
  return document;
}

}  // namespace

QueryReply SuggestAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                         Metrics* metrics) {
  const auto found = views.pools.find(query.pool);
  if (found == views.pools.end()) {
    const auto remote = views.remote->pools.find(query.pool);
    if (remote == views.remote->pools.end()) {
      return NotHeldAnswer(query.pool, views.held, config);
    }
    return JsonErrorReply(
        404, absl::StrCat("pool '", query.pool, "' is owned by another instance (partition ",
                          AnyBoard(remote->second)->partition(), " of ", config.results_topic,
                          "): ask it for suggestions"));
  }
  const absl::StatusOr<google::protobuf::Struct> document = SuggestDocument(*found->second, query);
  if (!document.ok()) {
    const int status = absl::IsNotFound(document.status())             ? 404
                       : absl::IsFailedPrecondition(document.status()) ? 409
                                                                       : 500;
    return JsonErrorReply(status, std::string(document.status().message()));
  }
  QueryReply reply = JsonReply(200, *document);
  if (metrics != nullptr && reply.status == 200) {
    metrics->Suggestions(std::string(ratings::active::SuggestStrategyName(query.suggest.strategy)))
        .Increment(static_cast<double>(SuggestionCount(*document)));
  }
  return reply;
}

v1::RatingReport ReportFromBoard(const v1::Leaderboard& board, size_t limit,
                                 bool include_inactive) {
  v1::RatingReport report;
  report.set_method(board.model());
  report.set_agents(board.agents());
  report.set_results(static_cast<uint32_t>(board.results()));
  const int n = limit == 0 ? board.ranking_size()
                           : static_cast<int>(std::min<size_t>(limit, board.ranking_size()));
  report.mutable_ranking()->Reserve(n);
  // The inactive agents come last (LivePool::Leaderboard): the limit counts the others.
  for (const v1::RankedAgent& entry : board.ranking()) {
    if (report.ranking_size() == n) break;
    if (entry.inactive() && !include_inactive) break;
    *report.add_ranking() = entry;
  }
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = board.params();
  // ratingd has no seed (the online models draw nothing); 0 keeps the document's shape.
  extra["seed"].set_number_value(0);
  if (board.model() == ratings::ModelName(ratings::Model::kMl)) {
    // `ratingctl rate --method ml`'s extra: the lottery of the listed agents only.
    auto& lottery = *extra["lottery"].mutable_struct_value()->mutable_fields();
    for (const v1::RankedAgent& r : report.ranking()) {
      const auto p = board.lottery().find(r.agent());
      lottery[r.agent()].set_number_value(p == board.lottery().end() ? 0.0 : p->second);
    }
    extra["exploitability"].set_number_value(board.exploitability());
    extra["iterations"].set_number_value(static_cast<double>(board.iterations()));
    extra["converged"].set_bool_value(board.converged());
  }
  report.set_sequence(static_cast<uint32_t>(board.sequence()));
  *report.mutable_committed_at() = board.committed_at();
  return report;
}

BoardRef FindBoard(const Views& views, const std::string& pool, ratings::Model model) {
  if (const auto own = views.pools.find(pool); own != views.pools.end()) {
    const auto& board = own->second->boards[static_cast<size_t>(model)];
    return {.board = board.get(), .shared = board, .view = own->second.get()};
  }
  if (const auto remote = views.remote->pools.find(pool); remote != views.remote->pools.end()) {
    const auto& board = remote->second[static_cast<size_t>(model)];
    return {.board = board.get(), .shared = board, .remote = true};
  }
  return {};
}

QueryReply LeaderboardAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                             AnswerCache* cache) {
  const BoardRef found = FindBoard(views, query.pool, query.model);
  if (found.view == nullptr && !found.remote) {
    return NotHeldAnswer(query.pool, views.held, config);
  }
  if (found.board == nullptr) {
    if (found.view != nullptr) return ModelOffAnswer(query.model);
    return JsonErrorReply(
        404, absl::StrCat("pool '", query.pool, "' is owned by another ", "instance, and ",
                          config.leaderboards_topic, " has no leaderboard of its model '",
                          ratings::ModelName(query.model), "'"));
  }
  if (found.ml_refused()) return JsonErrorReply(409, MlRefused(*found.view));
  const auto render = [&] {
    v1::RatingReport report = ReportFromBoard(*found.board, query.limit, query.include_inactive);
    report.set_owner(!found.remote);
    return JsonReply(200, report);
  };
  if (cache == nullptr || query.include_inactive) return render();  // the cache: the default
  return cache->Answer(found.shared, query.limit, !found.remote, render);
}

}  // namespace ratingd
