#include "daemon/ratingd/view_answers.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/deterministic_json.h"
#include "daemon/suggest_report.h"
#include "google/protobuf/struct.pb.h"
#include "ratings/model.h"

namespace ratingd {

QueryReply PoolsAnswer(const Views& views) {
  google::protobuf::Struct body;
  google::protobuf::ListValue& list = *(*body.mutable_fields())["pools"].mutable_list_value();
  for (const PoolView* view : views.in_order) {
    auto& f = *list.add_values()->mutable_struct_value()->mutable_fields();
    f["pool"].set_string_value(view->pool);
    f["partition"].set_number_value(view->partition);
    f["agents"].set_number_value(static_cast<double>(view->agents));
    f["results"].set_number_value(static_cast<double>(view->results));
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

QueryReply SuggestAnswer(const Views& views, const Query& query, const DaemonConfig& config,
                         Metrics* metrics) {
  const auto found = views.pools.find(query.pool);
  if (found == views.pools.end()) return NotHeldAnswer(query.pool, views.held, config);
  const PoolView& view = *found->second;
  const google::protobuf::Struct document = SuggestFromCounts(query.pool,
                                                              {.agents = view.counts->agents,
                                                               .games = view.counts->games,
                                                               .points = view.counts->points,
                                                               .results = view.results},
                                                              query.suggest);
  QueryReply reply = JsonReply(200, document);
  if (metrics != nullptr && reply.status == 200) {
    metrics->Suggestions(std::string(ratings::active::SuggestStrategyName(query.suggest.strategy)))
        .Increment(static_cast<double>(SuggestionCount(document)));
  }
  return reply;
}

v1::RatingReport ReportFromBoard(const v1::Leaderboard& board, size_t limit) {
  v1::RatingReport report;
  report.set_method(board.model());
  report.set_agents(board.agents());
  report.set_results(static_cast<uint32_t>(board.results()));
  const int n = limit == 0 ? board.ranking_size()
                           : static_cast<int>(std::min<size_t>(limit, board.ranking_size()));
  report.mutable_ranking()->Reserve(n);
  for (int i = 0; i < n; ++i) *report.add_ranking() = board.ranking(i);
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = board.params();
  // ratingd has no seed (the online models draw nothing); 0 keeps the document's shape.
  extra["seed"].set_number_value(0);
  report.set_sequence(static_cast<uint32_t>(board.sequence()));
  *report.mutable_committed_at() = board.committed_at();
  return report;
}

QueryReply LeaderboardAnswer(const Views& views, const Query& query, const DaemonConfig& config) {
  const auto found = views.pools.find(query.pool);
  if (found == views.pools.end()) return NotHeldAnswer(query.pool, views.held, config);
  const v1::Leaderboard* board = found->second->board(query.model);
  if (board == nullptr) {
    return JsonErrorReply(404,
                          absl::StrCat("model '", ratings::ModelName(query.model), "' is off"));
  }
  return JsonReply(200, ReportFromBoard(*board, query.limit));
}

}  // namespace ratingd
