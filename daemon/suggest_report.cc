#include "daemon/suggest_report.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/pool_report.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using ratings::active::SuggestedPair;
using ratings::active::SuggestStrategy;

size_t Clamped(size_t n) { return std::min(n, ratings::active::kMaxSuggestions); }

google::protobuf::Struct Document(const std::string& pool_name, uint64_t sequence,
                                  SuggestStrategy strategy,
                                  const std::vector<SuggestedPair>& pairs) {
  google::protobuf::Struct doc;
  auto& f = *doc.mutable_fields();
  f["pool"].set_string_value(pool_name);
  f["sequence"].set_number_value(static_cast<double>(sequence));
  f["strategy"].set_string_value(std::string(ratings::active::SuggestStrategyName(strategy)));
  google::protobuf::ListValue& list = *f["suggestions"].mutable_list_value();
  for (const SuggestedPair& p : pairs) {
    auto& item = *list.add_values()->mutable_struct_value()->mutable_fields();
    google::protobuf::ListValue& agents = *item["agents"].mutable_list_value();
    agents.add_values()->set_string_value(p.a);
    agents.add_values()->set_string_value(p.b);
    item["probability"].set_number_value(p.probability);
  }
  return doc;
}

}  // namespace

google::protobuf::Struct SuggestFromCounts(const std::string& pool_name,
                                           const SuggestCounts& counts,
                                           const SuggestRequest& request) {
  std::vector<SuggestedPair> pairs;
  if (request.strategy == SuggestStrategy::kUcb) {
    pairs =
        ratings::active::SuggestUcb(counts.agents, counts.games, counts.points, Clamped(request.n));
  } else {
    std::mt19937_64 rng = ratings::active::SuggestRng(counts.results, request.seed);
    pairs = ratings::active::SuggestUniform(counts.agents, Clamped(request.n), rng);
  }
  return Document(pool_name, counts.results, request.strategy, pairs);
}

google::protobuf::Struct SuggestFromPool(const std::string& pool_name, const ratings::Pool& pool,
                                         const SuggestRequest& request) {
  return SuggestFromCounts(pool_name,
                           {.agents = pool.index().names(),
                            .games = pool.games().games(),
                            .points = pool.games().points(),
                            .results = pool.results()},
                           request);
}

absl::StatusOr<google::protobuf::Struct> SuggestForPool(const std::string& pool_name,
                                                        ratings::Pool& pool,
                                                        const SuggestRequest& request) {
  if (request.strategy != ratings::active::SuggestStrategy::kMl) {
    return SuggestFromPool(pool_name, pool, request);
  }
  if (pool.ml() == nullptr || pool.ml()->refused()) {
    return absl::FailedPreconditionError(
        pool.ml() == nullptr
            ? absl::StrCat("strategy ml: ml is off for pool '", pool_name, "'")
            : absl::StrCat("strategy ml: ml is off for pool '", pool_name,
                           "': ", pool.index().size(),
                           " agents exceed max_agents=", pool.ml()->options().max_agents));
  }
  ASSIGN_OR_RETURN(const v1::RatingReport report, PoolReport(ratings::Model::kMl, pool, 0, 0));
  return SuggestFromMlReport(pool_name, pool.results(), report, request);
}

absl::StatusOr<google::protobuf::Struct> SuggestFromMlReport(const std::string& pool_name,
                                                             uint64_t sequence,
                                                             const v1::RatingReport& report,
                                                             const SuggestRequest& request) {
  RETURN_IF_ERROR(ratings::active::CheckExploration(request.exploration));
  const auto& extra = report.extra().fields();
  const auto lottery_field = extra.find("lottery");
  if (lottery_field == extra.end()) {
    return absl::InvalidArgumentError("the ml report has no lottery");
  }
  const auto& lottery = lottery_field->second.struct_value().fields();
  std::vector<std::string> agents;
  std::vector<double> sigma;
  agents.reserve(static_cast<size_t>(report.ranking_size()));
  sigma.reserve(static_cast<size_t>(report.ranking_size()));
  for (const v1::RankedAgent& r : report.ranking()) {
    const auto p = lottery.find(r.agent());
    if (p == lottery.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the ml report has no lottery probability for '", r.agent(), "'"));
    }
    agents.push_back(r.agent());
    sigma.push_back(p->second.number_value());
  }
  std::mt19937_64 rng = ratings::active::SuggestRng(sequence, request.seed);
  return Document(
      pool_name, sequence, SuggestStrategy::kMl,
      ratings::active::SuggestMl(agents, sigma, request.exploration, Clamped(request.n), rng));
}

size_t SuggestionCount(const google::protobuf::Struct& document) {
  const auto it = document.fields().find("suggestions");
  return it == document.fields().end() ? 0
                                       : static_cast<size_t>(it->second.list_value().values_size());
}

}  // namespace ratingd
