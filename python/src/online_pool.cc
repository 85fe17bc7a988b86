// ratingd._core.OnlinePool: one pool of ratingd's online models in a notebook (docs/PYTHON.md).
// The same pool, replicas and reports as ratingd keeps and `ratingctl rate
// --bootstrap-replicas` prints: results applied in order (ratings::Pool), the bootstrap
// replicas seeded by the pool's name, each leaderboard PoolReport with AddUncertainty, the
// ml leaderboard and ml suggestions solved at the call on a copy (as `ratingctl rate --method
// ml` solves once on the whole stream).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "daemon/model_params.h"
#include "daemon/pool_report.h"
#include "daemon/suggest_report.h"
#include "python/src/records.h"
#include "ratings/active/suggest.h"
#include "ratings/io/event_time.h"
#include "ratings/model.h"
#include "ratings/online_bootstrap.h"
#include "ratings/pool.h"

namespace ratingd::python {
namespace {

// The pool's models and parameters as ratingd's --models and --param MODEL.KEY=VALUE.
ratings::PoolOptions Options(const std::vector<std::string>& models,
                             const std::vector<std::string>& params) {
  ratings::PoolOptions options;
  if (absl::Status s = ApplyModelList(absl::StrJoin(models, ","), options); !s.ok()) Raise(s);
  if (absl::Status s = ApplyScopedModelParams(params, options); !s.ok()) Raise(s);
  return options;
}

class OnlinePool {
 public:
  OnlinePool(std::string name, const std::vector<std::string>& models,
             const std::vector<std::string>& params, uint32_t replicas, uint64_t provisional_games,
             double provisional_rd)
      : name_(std::move(name)),
        options_(Options(models, params)),
        pool_(Created(ratings::Pool::Create(options_))),
        provisional_{.games = provisional_games, .rd = provisional_rd} {
    if (replicas > 0 && (options_.elo || options_.sco)) {
      absl::StatusOr<ratings::OnlineBootstrap> bootstrap = ratings::OnlineBootstrap::Create(
          {.replicas = replicas, .seed = ratings::NameSeed(name_)},
          options_.elo ? std::optional(options_.elo_options) : std::nullopt,
          options_.sco ? std::optional(options_.sco_options) : std::nullopt);
      if (!bootstrap.ok()) Raise(bootstrap.status());
      bootstrap_ = *std::move(bootstrap);
    }
    replicas_ = replicas;
  }

  // One result, standings best first as (agent, rank), at event time `seconds` since the
  // Unix epoch (none: nullopt); false if game_id was seen before.
  bool Add(const std::vector<std::pair<std::string, uint32_t>>& standings,
           const std::optional<std::string>& game_id, double weight,
           std::optional<double> seconds) {
    std::optional<absl::Time> time;
    if (seconds.has_value()) {
      absl::StatusOr<absl::Time> t = ratings::io::EventTimeFromSeconds(*seconds, "event_time");
      if (!t.ok()) Raise(t.status());
      time = *t;
    }
    if (game_id.has_value() && !seen_.insert(*game_id).second) return false;
    ratings::Result result;
    result.weight = weight;
    for (const auto& [agent, rank] : standings) {
      result.standings.push_back({agent, rank, std::nullopt});
    }
    if (absl::Status s = Apply(result, time); !s.ok()) {
      if (game_id.has_value()) seen_.erase(*game_id);
      Raise(s);
    }
    return true;
  }

  // Records in order (a battles DataFrame's); the count applied. A bad one stops the call
  // with its position, those before it applied.
  size_t AddRecords(const Records& records) {
    size_t applied = 0;
    absl::Status status;
    {
      nb::gil_scoped_release release;
      for (; applied < records.records.size(); ++applied) {
        status = Apply(records.records[applied].result, records.records[applied].event_time);
        if (!status.ok()) break;
      }
    }
    if (!status.ok()) RaiseAtRow(applied, status);
    return applied;
  }

  // Battles by code, as rate_battle_votes takes them (battle_votes.cc): names[code] in
  // order of first appearance, model_a before model_b; a[i] against b[i], outcome[i] 0
  // (a won), 1 (b won) or 2 (a tie). Each name is interned when first met, as Apply would,
  // and each battle applied by id, at tstamp[i] seconds since the Unix epoch (NaN: none;
  // an empty tstamp: no times; read only when the pool keeps glicko2). The count applied; a bad one
  // stops the call with its position, those before it applied.
  size_t AddBattleCodes(const std::vector<std::string>& names, Column<int64_t> a, Column<int64_t> b,
                        Column<int8_t> outcome, Column<double> tstamp) {
    const size_t n = a.shape(0);
    const bool timed = options_.glicko2 && tstamp.shape(0) != 0;
    if (b.shape(0) != n || outcome.shape(0) != n ||
        (tstamp.shape(0) != 0 && tstamp.shape(0) != n)) {
      throw nb::value_error("internal: battle columns of different lengths");
    }
    constexpr ratings::AgentId kNone = ~ratings::AgentId{0};
    std::vector<ratings::AgentId> ids(names.size(), kNone);
    size_t applied = 0;
    absl::Status status;
    {
      nb::gil_scoped_release release;
      const auto id = [&](int64_t code) -> absl::StatusOr<ratings::AgentId> {
        if (code < 0 || static_cast<size_t>(code) >= names.size()) {
          return absl::InternalError("code out of range");
        }
        if (ids[code] == kNone) {
          absl::StatusOr<ratings::AgentId> interned = pool_.InternAgent(names[code]);
          if (!interned.ok()) return interned.status();
          ids[code] = *interned;
        }
        return ids[code];
      };
      for (; applied < n; ++applied) {
        absl::StatusOr<ratings::AgentId> first = id(a(applied));
        absl::StatusOr<ratings::AgentId> second =
            first.ok() ? id(b(applied)) : absl::StatusOr<ratings::AgentId>(first.status());
        if (!second.ok()) {
          status = second.status();
          break;
        }
        const ratings::AgentId agents[2] = {*first, *second};
        const uint32_t ranks[2] = {outcome(applied) == 1 ? 2u : 1u,
                                   outcome(applied) == 0 ? 2u : 1u};
        std::optional<absl::Time> time;
        if (timed && !std::isnan(tstamp(applied))) {
          absl::StatusOr<absl::Time> t =
              ratings::io::EventTimeFromSeconds(tstamp(applied), "tstamp");
          if (!t.ok()) {
            status = t.status();
            break;
          }
          time = *t;
        }
        status = pool_.ApplyIndexed({agents, ranks, 1.0}, time);
        if (!status.ok()) break;
        if (bootstrap_) bootstrap_->Update(pool_);
      }
    }
    if (!status.ok()) RaiseAtRow(applied, status);
    return applied;
  }

  // The `ratingctl rate --method MODEL` document of the pool.
  std::string Leaderboard(const std::string& model_name) {
    const ratings::Model model = ModelOn(model_name);
    absl::StatusOr<v1::RatingReport> report;
    {
      nb::gil_scoped_release release;
      if (model == ratings::Model::kMl) {
        ratings::Pool copy = pool_;  // solving moves the pool's ml state
        report = PoolReport(model, copy, 0, 0);
      } else {
        report = PoolReport(model, pool_, 0, 0);
      }
      // As `ratingctl rate`: glicko2's entries always carry its deviation.
      if (report.ok() && (replicas_ > 0 || model == ratings::Model::kGlicko2)) {
        AddUncertainty(model, pool_, bootstrap_ ? &*bootstrap_ : nullptr, provisional_,
                       *report->mutable_ranking());
      }
    }
    if (!report.ok()) Raise(report.status());
    (*report->mutable_extra()->mutable_fields())["skipped_votes"].set_number_value(0);
    return Json(*report);
  }

  // The `ratingctl suggest` document.
  std::string Suggest(const std::string& strategy, size_t n, double exploration, uint64_t seed) {
    const std::optional<ratings::active::SuggestStrategy> parsed =
        ratings::active::ParseSuggestStrategy(strategy);
    if (!parsed.has_value()) {
      throw nb::value_error(
          absl::StrCat("strategy: unknown strategy '", strategy, "'; known: uniform, ucb, ml")
              .c_str());
    }
    if (absl::Status s = ratings::active::CheckExploration(exploration); !s.ok()) Raise(s);
    const SuggestRequest request{
        .strategy = *parsed, .n = n, .exploration = exploration, .seed = seed};
    absl::StatusOr<google::protobuf::Struct> document;
    {
      nb::gil_scoped_release release;
      ratings::Pool copy = pool_;
      document = SuggestForPool(name_, copy, request);
    }
    if (!document.ok()) Raise(document.status());
    return Json(*document);
  }

  uint64_t results() const { return pool_.results(); }
  size_t agents() const { return pool_.index().size(); }

 private:
  static ratings::Pool Created(absl::StatusOr<ratings::Pool> pool) {
    if (!pool.ok()) Raise(pool.status());
    return *std::move(pool);
  }

  absl::Status Apply(const ratings::Result& result, std::optional<absl::Time> time) {
    absl::Status applied = pool_.Apply(result, time);
    if (applied.ok() && bootstrap_) bootstrap_->Update(pool_);
    return applied;
  }

  ratings::Model ModelOn(const std::string& name) const {
    const std::optional<ratings::Model> model = ratings::ParseModel(name);
    if (!model.has_value()) {
      throw nb::value_error(
          absl::StrCat("model: unknown model '", name, "'; known: elo, sco, ml, glicko2").c_str());
    }
    if (!ratings::ModelOn(options_, *model)) {
      throw nb::value_error(
          absl::StrCat("model: '", name, "' is not one of this pool's models").c_str());
    }
    return *model;
  }

  std::string name_;
  ratings::PoolOptions options_;
  ratings::Pool pool_;
  std::optional<ratings::OnlineBootstrap> bootstrap_;
  uint32_t replicas_ = 0;
  ProvisionalRule provisional_;
  absl::flat_hash_set<std::string> seen_;
};

}  // namespace

void BindOnlinePool(nb::module_& m) {
  nb::class_<OnlinePool>(m, "OnlinePool")
      .def(nb::init<std::string, const std::vector<std::string>&, const std::vector<std::string>&,
                    uint32_t, uint64_t, double>())
      .def("add", &OnlinePool::Add)
      .def("add_records", &OnlinePool::AddRecords)
      .def("add_battle_codes", &OnlinePool::AddBattleCodes)
      .def("leaderboard", &OnlinePool::Leaderboard)
      .def("suggest", &OnlinePool::Suggest)
      .def_prop_ro("results", &OnlinePool::results)
      .def_prop_ro("agents", &OnlinePool::agents);
}

}  // namespace ratingd::python
