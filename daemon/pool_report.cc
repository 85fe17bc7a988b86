#include "daemon/pool_report.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "daemon/deterministic_json.h"
#include "daemon/model_params.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/io/game_result_proto.h"
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

// RankIntervals over the pool's active agents only (all of them without an activity
// clock); an inactive agent's is {0, 0}.
std::vector<ratings::RankInterval> ActiveRankIntervals(
    const ratings::Pool& pool, const std::vector<ratings::RatingInterval>& intervals) {
  if (pool.activity() == nullptr) return ratings::RankIntervals(intervals);
  std::vector<ratings::RatingInterval> active;
  std::vector<ratings::AgentId> ids;
  for (ratings::AgentId a = 0; a < intervals.size(); ++a) {
    if (pool.Inactive(a)) continue;
    active.push_back(intervals[a]);
    ids.push_back(a);
  }
  const std::vector<ratings::RankInterval> ranks = ratings::RankIntervals(active);
  std::vector<ratings::RankInterval> out(intervals.size());
  for (size_t i = 0; i < ids.size(); ++i) out[ids[i]] = ranks[i];
  return out;
}

// Every entry's interval, and the rank interval by LMArena's rule over the active agents'
// intervals (none for an inactive agent).
void AddIntervals(const ratings::Pool& pool, const std::vector<ratings::AgentId>& ids,
                  const std::vector<ratings::RatingInterval>& intervals,
                  google::protobuf::RepeatedPtrField<v1::RankedAgent>& ranking) {
  const std::vector<ratings::RankInterval> ranks = ActiveRankIntervals(pool, intervals);
  for (int i = 0; i < ranking.size(); ++i) {
    const ratings::AgentId a = ids[static_cast<size_t>(i)];
    ranking[i].set_ci_low(intervals[a].low);
    ranking[i].set_ci_high(intervals[a].high);
    if (pool.Inactive(a)) continue;
    ranking[i].set_rank_low(ranks[a].best);
    ranking[i].set_rank_high(ranks[a].worst);
  }
}

void AddGlicko2Uncertainty(const ratings::Pool& pool, const std::vector<ratings::AgentId>& ids,
                           double provisional_rd,
                           google::protobuf::RepeatedPtrField<v1::RankedAgent>& ranking) {
  const ratings::Glicko2& model = *pool.glicko2();
  std::vector<ratings::RatingInterval> intervals(model.size());
  for (ratings::AgentId a = 0; a < model.size(); ++a) intervals[a] = model.Interval(a);
  for (int i = 0; i < ranking.size(); ++i) {
    const ratings::AgentId a = ids[static_cast<size_t>(i)];
    v1::RankedAgent& entry = ranking[i];
    entry.set_rd(model.Deviation(a));
    entry.set_volatility(model.Volatility(a));
    if (const std::optional<absl::Time> last = model.LastPlayed(a)) {
      *entry.mutable_last_played() = ratings::io::TimestampOf(*last);
    }
    if (entry.rd() > provisional_rd) entry.set_provisional(true);
  }
  AddIntervals(pool, ids, intervals, ranking);
}

}  // namespace

void AddLatestEventTime(const ratings::Glicko2& model, v1::RatingReport& report) {
  if (const std::optional<absl::Time> latest = model.latest()) {
    (*report.mutable_extra()->mutable_fields())["latest_event_time"] =
        StringValue(google::protobuf::util::TimeUtil::ToString(ratings::io::TimestampOf(*latest)));
  }
}

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
    case ratings::Model::kGlicko2: {
      const ratings::Glicko2* glicko2 = pool.glicko2();
      if (glicko2 == nullptr) return off();
      AddRanking(ratings::RankByRating(glicko2->Ratings(), pool.index()), pool.index(), limit,
                 report);
      AddLatestEventTime(*glicko2, report);
      break;
    }
  }
  return report;
}

void AddUncertainty(ratings::Model model, const ratings::Pool& pool,
                    const ratings::OnlineBootstrap* bootstrap, const ProvisionalRule& provisional,
                    google::protobuf::RepeatedPtrField<v1::RankedAgent>& ranking) {
  const std::vector<uint64_t>& results = pool.games().results();
  std::vector<ratings::AgentId> ids;
  ids.reserve(static_cast<size_t>(ranking.size()));
  for (v1::RankedAgent& r : ranking) {
    const ratings::AgentId id = *pool.index().Find(r.agent());
    ids.push_back(id);
    r.set_games(static_cast<uint32_t>(std::min<uint64_t>(results[id], UINT32_MAX)));
    r.set_provisional(results[id] < provisional.games);
  }
  if (model == ratings::Model::kGlicko2 && pool.glicko2()) {
    AddGlicko2Uncertainty(pool, ids, provisional.rd, ranking);
    return;
  }
  if (bootstrap == nullptr) return;
  std::vector<ratings::RatingInterval> intervals;
  if (model == ratings::Model::kElo && bootstrap->has_elo() && pool.elo()) {
    intervals = bootstrap->EloIntervals(pool.elo()->ratings());
  } else if (model == ratings::Model::kSco && bootstrap->has_sco() && pool.sco()) {
    intervals = bootstrap->ScoIntervals(pool.sco()->ratings());
  } else {
    return;
  }
  AddIntervals(pool, ids, intervals, ranking);
}

void ApplyInactivity(const ratings::Pool& pool, bool include_inactive,
                     google::protobuf::RepeatedPtrField<v1::RankedAgent>& ranking) {
  if (pool.activity() == nullptr) return;
  google::protobuf::RepeatedPtrField<v1::RankedAgent> active, inactive;
  for (v1::RankedAgent& entry : ranking) {
    const ratings::AgentId* id = pool.index().Find(entry.agent());
    if (id != nullptr && pool.Inactive(*id)) {
      if (!include_inactive) continue;
      entry.clear_rank();
      entry.clear_rank_low();
      entry.clear_rank_high();
      entry.set_inactive(true);
      inactive.Add(std::move(entry));
    } else {
      entry.set_rank(static_cast<uint32_t>(active.size() + 1));
      active.Add(std::move(entry));
    }
  }
  for (v1::RankedAgent& entry : inactive) active.Add(std::move(entry));
  ranking.Swap(&active);
}

}  // namespace ratingd
