#include "daemon/pool_report.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "daemon/deterministic_json.h"
#include "daemon/model_params.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

void AddRanking(const std::vector<ratings::RankedAgent>& ranked, const ratings::AgentIndex& index,
                size_t limit, v1::RatingReport& report) {
  for (const ratings::RankedAgent& r : ranked) {
    if (limit != 0 && r.rank > limit) break;
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(r.rank);
    out->set_agent(index.Name(r.id));
    out->set_rating(r.rating);
  }
}

}  // namespace

absl::StatusOr<v1::RatingReport> PoolReport(ratings::Model model, ratings::Pool& pool, size_t limit,
                                            uint64_t seed) {
  const absl::string_view name = ratings::ModelName(model);
  v1::RatingReport report;
  report.set_method(std::string(name));
  report.set_agents(static_cast<uint32_t>(pool.index().size()));
  report.set_results(static_cast<uint32_t>(pool.results()));
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = ModelParamsStruct(name, pool.options());
  extra["seed"] = NumberValue(static_cast<double>(seed));
  const auto off = [&] {
    return absl::FailedPreconditionError(absl::StrCat("model '", name, "' is off"));
  };
  switch (model) {
    case ratings::Model::kElo:
      if (pool.elo() == nullptr) return off();
      AddRanking(ratings::RankByRating(pool.elo()->ratings(), pool.index()), pool.index(), limit,
                 report);
      break;
    case ratings::Model::kSco:
      if (pool.sco() == nullptr) return off();
      AddRanking(ratings::RankByRating(pool.sco()->ratings(), pool.index()), pool.index(), limit,
                 report);
      break;
    case ratings::Model::kMl: {
      ratings::MaximalLottery* ml = pool.mutable_ml();
      if (ml == nullptr) return off();
      ASSIGN_OR_RETURN(const ratings::SolveStats stats, ml->Solve());
      const std::vector<double> lottery = ml->Lottery();
      const std::vector<double> rating = ml->Ratings();
      // Probabilities and ratings within the target exploitability tie (docs/MODELS.md §4).
      AddRanking(ratings::RankByProbabilityThenRating(lottery, rating, pool.index(),
                                                      ml->options().target_exploitability),
                 pool.index(), limit, report);
      auto& out = *extra["lottery"].mutable_struct_value()->mutable_fields();
      for (const v1::RankedAgent& r : report.ranking()) {
        out[r.agent()] = NumberValue(lottery[*pool.index().Find(r.agent())]);
      }
      extra["exploitability"] = NumberValue(ml->Exploitability());
      extra["iterations"] = NumberValue(static_cast<double>(ml->iterations()));
      extra["converged"].set_bool_value(stats.converged);
      break;
    }
  }
  return report;
}

}  // namespace ratingd
