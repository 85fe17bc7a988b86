#include "ratings/pool.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "ratings/status_macros.h"

namespace ratings {

bool ModelOn(const PoolOptions& options, Model model) {
  switch (model) {
    case Model::kElo:
      return options.elo;
    case Model::kSco:
      return options.sco;
    case Model::kMl:
      return options.ml;
    case Model::kGlicko2:
      return options.glicko2;
  }
  return false;
}

absl::StatusOr<Pool> Pool::Create(const PoolOptions& options) {
  Pool pool(options);
  if (options.elo) {
    ASSIGN_OR_RETURN(Elo elo, Elo::Create(options.elo_options));
    pool.elo_.emplace(std::move(elo));
  }
  if (options.sco) {
    ASSIGN_OR_RETURN(Sco sco, Sco::Create(options.sco_options));
    pool.sco_.emplace(std::move(sco));
  }
  if (options.ml) {
    ASSIGN_OR_RETURN(MaximalLottery ml, MaximalLottery::Create(options.ml_options));
    pool.ml_.emplace(std::move(ml));
  }
  if (options.glicko2) {
    ASSIGN_OR_RETURN(Glicko2 glicko2, Glicko2::Create(options.glicko2_options));
    pool.glicko2_.emplace(std::move(glicko2));
  }
  if (options.inactive_after < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat("inactive_after must be a duration >= 0, got ",
                                                   absl::FormatDuration(options.inactive_after)));
  }
  if (options.inactive_after != absl::InfiniteDuration()) {
    pool.activity_.emplace(options.inactive_after);
  }
  return pool;
}

absl::Status Pool::Apply(const Result& result, std::optional<absl::Time> time) {
  RETURN_IF_ERROR(ValidateResult(result, options_.limits));
  ids_.clear();
  ranks_.clear();
  for (const Standing& s : result.standings) {
    ids_.push_back(index_.Intern(s.agent));
    ranks_.push_back(s.rank);
  }
  weight_ = result.weight;
  return ApplyInterned(time);
}

absl::StatusOr<AgentId> Pool::InternAgent(absl::string_view name) {
  if (name.empty()) return absl::InvalidArgumentError("empty agent id");
  if (name.size() > options_.limits.max_agent_id_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("agent id of ", name.size(),
                                                   " bytes exceeds the limit of ",
                                                   options_.limits.max_agent_id_bytes));
  }
  return index_.Intern(name);
}

absl::Status Pool::ApplyIndexed(const IndexedResult& result, std::optional<absl::Time> time) {
  const size_t k = result.size();
  if (k < 2 || k > options_.limits.max_standings || result.ranks.size() != k) {
    return absl::InvalidArgumentError(absl::StrCat(k, " standings; a result orders 2 to ",
                                                   options_.limits.max_standings, " agents"));
  }
  if (!std::isfinite(result.weight) || result.weight <= 0 || result.weight > kMaxWeight) {
    return absl::InvalidArgumentError(
        absl::StrCat("weight ", result.weight, " is not a finite number in (0, ", kMaxWeight, "]"));
  }
  for (size_t i = 0; i < k; ++i) {
    if (result.agents[i] >= index_.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("standings[", i, "]: agent #", result.agents[i], " is not in the pool"));
    }
    if (result.ranks[i] == 0) {
      return absl::InvalidArgumentError(absl::StrCat("standings[", i, "]: rank 0"));
    }
    for (size_t j = 0; j < i; ++j) {
      if (result.agents[j] == result.agents[i]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "standings[", i, "]: agent '", index_.Name(result.agents[i]), "' appears twice"));
      }
    }
  }
  ids_.assign(result.agents.begin(), result.agents.end());
  ranks_.assign(result.ranks.begin(), result.ranks.end());
  weight_ = result.weight;
  return ApplyInterned(time);
}

absl::Status Pool::ApplyInterned(std::optional<absl::Time> time) {
  const size_t n = index_.size();
  const IndexedResult indexed{ids_, ranks_, weight_};
  games_.Resize(n);
  games_.Update(indexed);
  if (elo_) {
    elo_->Resize(n);
    elo_->Update(indexed);
  }
  if (sco_) {
    sco_->Resize(n);
    sco_->Update(indexed);
  }
  if (ml_) {
    ml_->Resize(n);
    ml_->Update(indexed);
    if (options_.ml_options.iterations_per_result > 0 && !ml_->refused()) {
      RETURN_IF_ERROR(ml_->Solve(options_.ml_options.iterations_per_result).status());
    }
  }
  if (glicko2_) {
    glicko2_->Resize(n);
    glicko2_->Update(indexed, time);
  }
  if (activity_) {
    activity_->Resize(n);
    activity_->Record(ids_, time);
  }
  ++results_;
  return absl::OkStatus();
}

PoolState Pool::ExportState() const {
  PoolState state;
  state.agents.reserve(index_.size());
  for (size_t i = 0; i < index_.size(); ++i) {
    state.agents.push_back(index_.Name(static_cast<AgentId>(i)));
  }
  state.results = results_;
  if (elo_) state.elo.assign(elo_->ratings().begin(), elo_->ratings().end());
  if (sco_) state.sco.assign(sco_->ratings().begin(), sco_->ratings().end());
  if (ml_) state.ml = ml_->ExportState();
  if (glicko2_) state.glicko2 = glicko2_->state();
  if (activity_) state.activity = activity_->state();
  state.games = games_.games();
  state.points = games_.points();
  state.result_counts = games_.results();
  return state;
}

absl::StatusOr<Pool> Pool::FromState(const PoolOptions& options, const PoolState& state) {
  ASSIGN_OR_RETURN(Pool pool, Create(options));
  const size_t n = state.agents.size();
  pool.index_.Reserve(n);
  for (const std::string& name : state.agents) {
    const size_t before = pool.index_.size();
    if (pool.index_.Intern(name) != before) {  // an id it already had
      return absl::InvalidArgumentError(absl::StrCat("agent '", name, "' appears twice"));
    }
  }
  const auto check = [n](const char* model, bool on, const std::vector<double>& v) {
    const size_t want = on ? n : 0;
    return v.size() == want ? absl::OkStatus()
                            : absl::InvalidArgumentError(absl::StrCat(
                                  model, ": ", v.size(), " ratings for ", want, " agents"));
  };
  RETURN_IF_ERROR(check("elo", options.elo, state.elo));
  RETURN_IF_ERROR(check("sco", options.sco, state.sco));
  if (pool.elo_) RETURN_IF_ERROR(pool.elo_->Restore(state.elo));
  if (pool.sco_) RETURN_IF_ERROR(pool.sco_->Restore(state.sco));
  if (options.ml != state.ml.has_value()) {
    return absl::InvalidArgumentError(options.ml ? "ml: the state has no ml model"
                                                 : "ml: the state has an ml model but ml is off");
  }
  if (pool.ml_) {
    if (state.ml->size != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("ml: state of ", state.ml->size, " agents for ", n, " agents"));
    }
    RETURN_IF_ERROR(pool.ml_->RestoreState(*state.ml));
  }
  if (options.glicko2 != state.glicko2.has_value()) {
    return absl::InvalidArgumentError(options.glicko2
                                          ? "glicko2: the state has no glicko2 model"
                                          : "glicko2: the state has a glicko2 model but it is off");
  }
  if (pool.glicko2_) {
    if (state.glicko2->mu.size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("glicko2: ", state.glicko2->mu.size(), " ratings for ", n, " agents"));
    }
    RETURN_IF_ERROR(pool.glicko2_->Restore(*state.glicko2));
  }
  if (pool.activity_) {
    // A state kept without an activity clock (inactive_after turned on since): every agent
    // starts with no time, so none is inactive until it plays again.
    ActivityState activity = state.activity.value_or(ActivityState{});
    if (activity.last.empty()) activity.last.assign(n, absl::InfinitePast());
    if (activity.last.size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("activity: ", activity.last.size(), " last times for ", n, " agents"));
    }
    RETURN_IF_ERROR(pool.activity_->Restore(std::move(activity)));
  }
  if (state.games.empty() && state.points.empty()) {
    pool.games_.Resize(n);  // a state from before the pool kept game counts
  } else if (state.games.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("games: ", state.games.size(), " game counts for ", n, " agents"));
  } else {
    RETURN_IF_ERROR(pool.games_.Restore(state.games, state.points));
  }
  if (!state.result_counts.empty())
    RETURN_IF_ERROR(pool.games_.RestoreResults(state.result_counts));
  pool.results_ = state.results;
  return pool;
}

}  // namespace ratings
