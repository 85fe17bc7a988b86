#include "daemon/ratingd/agent_answer.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/ratingd/view_answers.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/io/game_result_proto.h"

namespace ratingd {
namespace {

google::protobuf::Value PointValue(const ratings::HistoryPoint& p) {
  google::protobuf::Value v;
  auto& f = *v.mutable_struct_value()->mutable_fields();
  f["sequence"] = NumberValue(static_cast<double>(p.sequence));
  if (p.time.has_value()) {
    f["time"] =
        StringValue(google::protobuf::util::TimeUtil::ToString(ratings::io::TimestampOf(*p.time)));
  }
  f["rating"] = NumberValue(p.rating);
  if (!std::isnan(p.ci_low)) f["ci_low"] = NumberValue(p.ci_low);
  if (!std::isnan(p.ci_high)) f["ci_high"] = NumberValue(p.ci_high);
  return v;
}

// The points of `agent` in `view`'s history of `model`; null if it keeps none.
const ratings::HistoryRun* PointsOf(const PoolView& view, ratings::Model model,
                                    const std::string& agent) {
  const auto& histories = view.histories[static_cast<size_t>(model)];
  if (histories == nullptr) return nullptr;
  const std::vector<std::string>& names = view.counts->agents;
  const auto it = std::find(names.begin(), names.end(), agent);
  const auto id = static_cast<size_t>(it - names.begin());
  if (it == names.end() || id >= histories->size()) return nullptr;
  return &(*histories)[id];
}

}  // namespace

QueryReply AgentAnswer(const Views& views, const Query& query, const DaemonConfig& config) {
  const BoardRef found = FindBoard(views, query.pool, query.model);
  if (found.view == nullptr && !found.remote) {
    return NotHeldAnswer(query.pool, views.held, config);
  }
  const std::string model(ratings::ModelName(query.model));
  if (found.board == nullptr) {
    return JsonErrorReply(404, absl::StrCat("model '", model, "' has no leaderboard of pool '",
                                            query.pool, "' here (off, or not yet published)"));
  }
  if (found.ml_refused()) {
    return JsonErrorReply(
        409, absl::StrCat("ml is off for pool '", query.pool, "': its agents exceed max_agents"));
  }
  const auto& ranking = found.board->ranking();
  const auto entry = std::find_if(ranking.begin(), ranking.end(), [&](const v1::RankedAgent& r) {
    return r.agent() == query.agent;
  });
  if (entry == ranking.end()) {
    return JsonErrorReply(404, absl::StrCat("agent '", query.agent, "' is not in the ", model,
                                            " leaderboard of pool '", query.pool, "'"));
  }
  google::protobuf::Struct body;
  auto& f = *body.mutable_fields();
  f["pool"] = StringValue(query.pool);
  f["model"] = StringValue(model);
  absl::StatusOr<std::string> entry_json = DeterministicJson(*entry);
  if (!entry_json.ok() ||
      !google::protobuf::util::JsonStringToMessage(*entry_json, f["agent"].mutable_struct_value())
           .ok()) {
    return JsonErrorReply(500, "cannot print the agent's entry");
  }
  if (found.view != nullptr) {
    if (const auto* points = PointsOf(*found.view, query.model, query.agent)) {
      auto& list = *f["history"].mutable_list_value();
      for (const ratings::HistoryPoint& p : points->points()) *list.add_values() = PointValue(p);
    }
  }
  f["sequence"] = NumberValue(static_cast<double>(found.board->sequence()));
  f["committed_at"] =
      StringValue(google::protobuf::util::TimeUtil::ToString(found.board->committed_at()));
  f["owner"] = BoolValue(!found.remote);
  return JsonReply(200, body);
}

}  // namespace ratingd
