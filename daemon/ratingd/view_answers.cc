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
  if (found == views.pools.end()) return NotHeldAnswer(query.pool, views.held, config);
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

QueryReply LeaderboardAnswer(const Views& views, const Query& query, const DaemonConfig& config) {
  const auto found = views.pools.find(query.pool);
  if (found == views.pools.end()) return NotHeldAnswer(query.pool, views.held, config);
  const PoolView& view = *found->second;
  const v1::Leaderboard* board = view.board(query.model);
  if (board == nullptr) return ModelOffAnswer(query.model);
  if (query.model == ratings::Model::kMl && view.ml_refused) {
    return JsonErrorReply(409, MlRefused(view));
  }
  return JsonReply(200, ReportFromBoard(*board, query.limit));
}

}  // namespace ratingd
