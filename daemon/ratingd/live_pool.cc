#include "daemon/ratingd/live_pool.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "daemon/model_params.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/wire_format.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using Before = std::vector<std::optional<std::pair<double, uint32_t>>>;

}  // namespace

LivePool::LivePool(std::string name, const LivePoolConfig& config, ratings::Pool pool)
    : name_(std::move(name)),
      config_(config),
      pool_(std::move(pool)),
      dedup_(config.dedup_window),
      elo_order_(&pool_.index()),
      sco_order_(&pool_.index()),
      glicko2_order_(&pool_.index()) {
  if (config_.history_points == 0) return;
  for (size_t i = 0; i < kPerResultModels.size(); ++i) {
    if (!ratings::ModelOn(pool_.options(), kPerResultModels[i])) continue;
    absl::StatusOr<ratings::PoolHistory> history =
        ratings::PoolHistory::Create(kPerResultModels[i], config_.history_points);
    assert(history.ok());  // Create refuses ml and fewer than 4 points: neither happens here
    histories_[i] = *std::move(history);
  }
}

size_t LivePool::PerResultIndex(ratings::Model model) {
  for (size_t i = 0; i < kPerResultModels.size(); ++i) {
    if (kPerResultModels[i] == model) return i;
  }
  return kPerResultModels.size();
}

const ratings::PoolHistory* LivePool::history(ratings::Model model) const {
  const size_t i = PerResultIndex(model);
  return i < histories_.size() && histories_[i] ? &*histories_[i] : nullptr;
}

void LivePool::BoundHistories() {
  if (config_.history_max_agents == 0 || pool_.index().size() <= config_.history_max_agents) {
    return;
  }
  for (std::optional<ratings::PoolHistory>& history : histories_) history.reset();
}

absl::StatusOr<std::unique_ptr<LivePool>> LivePool::Create(std::string name,
                                                           const LivePoolConfig& config) {
  ASSIGN_OR_RETURN(ratings::Pool pool, ratings::Pool::Create(config.options));
  ASSIGN_OR_RETURN(std::optional<ratings::OnlineBootstrap> bootstrap,
                   CreateBootstrap(config, name, pool.index().size()));
  std::unique_ptr<LivePool> live(new LivePool(std::move(name), config, std::move(pool)));
  live->bootstrap_ = std::move(bootstrap);
  return live;
}

absl::StatusOr<std::optional<ratings::OnlineBootstrap>> LivePool::CreateBootstrap(
    const LivePoolConfig& config, const std::string& name, size_t agents) {
  const ratings::PoolOptions& o = config.options;
  if (config.bootstrap_replicas == 0 || (!o.elo && !o.sco)) return std::nullopt;
  ASSIGN_OR_RETURN(ratings::OnlineBootstrap bootstrap,
                   ratings::OnlineBootstrap::Create(
                       {.replicas = config.bootstrap_replicas, .seed = ratings::NameSeed(name)},
                       o.elo ? std::optional(o.elo_options) : std::nullopt,
                       o.sco ? std::optional(o.sco_options) : std::nullopt));
  bootstrap.Resize(agents);
  return bootstrap;
}

absl::StatusOr<LivePool::Outcome> LivePool::Apply(const ratings::Result& result,
                                                  const std::string& game_id,
                                                  const google::protobuf::Timestamp* event_time,
                                                  int64_t record_time_ms,
                                                  std::vector<v1::RankingDelta>* deltas,
                                                  std::optional<MlJob>* ml_job) {
  if (dedup_.Contains(game_id)) return Outcome::kDuplicate;
  CaptureBefore(result);
  const Before& elo_before = scratch_.elo_before;
  const Before& sco_before = scratch_.sco_before;
  std::optional<absl::Time> time;
  if (event_time != nullptr) {
    time = absl::FromUnixSeconds(event_time->seconds()) + absl::Nanoseconds(event_time->nanos());
  }
  RETURN_IF_ERROR(pool_.Apply(result, time));
  dedup_.InsertAbsent(game_id);  // Contains was false above
  const absl::Span<const ratings::AgentId> ids = pool_.last_applied().agents;  // by standing
  // As result number results() - 1 of the pool: a replay draws the same weights.
  if (bootstrap_) bootstrap_->Update(pool_);
  BoundHistories();
  for (std::optional<ratings::PoolHistory>& history : histories_) {
    if (history) history->Record(pool_, bootstrap(), time);
  }

  // Reuse the caller's delta messages (their strings and repeated fields keep capacity).
  size_t used = 0;
  const auto start = [&](ratings::Model model, uint64_t sequence) -> v1::RankingDelta& {
    if (used == deltas->size()) deltas->emplace_back();
    v1::RankingDelta& delta = (*deltas)[used++];
    delta.Clear();
    delta.set_pool(name_);
    delta.set_model(std::string(ratings::ModelName(model)));
    delta.set_sequence(sequence);
    delta.set_game_id(game_id);
    delta.set_results(pool_.results());
    if (event_time != nullptr) {
      *delta.mutable_event_time() = *event_time;
    } else {
      delta.mutable_event_time();  // present and empty, as deltas have always carried it
    }
    return delta;
  };
  // The new rating of each standing.
  std::vector<double>& after = scratch_.after;
  const auto new_ratings = [&](const auto& rating) {
    after.clear();
    for (const ratings::AgentId id : ids) after.push_back(rating(id));
    return absl::Span<const double>(after);
  };
  if (const ratings::Elo* elo = pool_.elo()) {
    v1::RankingDelta& delta = start(ratings::Model::kElo, elo_sequence_ + 1);
    AppendDelta(elo_order_, new_ratings([elo](ratings::AgentId a) { return elo->ratings()[a]; }),
                elo->options().initial, elo_sequence_, ids, elo_before, delta);
  }
  if (const ratings::Sco* sco = pool_.sco()) {
    v1::RankingDelta& delta = start(ratings::Model::kSco, sco_sequence_ + 1);
    const double mid = (sco->options().min + sco->options().max) / 2;
    AppendDelta(sco_order_, new_ratings([sco](ratings::AgentId a) { return sco->ratings()[a]; }),
                mid, sco_sequence_, ids, sco_before, delta);
  }
  if (const ratings::Glicko2* glicko2 = pool_.glicko2()) {
    v1::RankingDelta& delta = start(ratings::Model::kGlicko2, glicko2_sequence_ + 1);
    AppendDelta(glicko2_order_,
                new_ratings([glicko2](ratings::AgentId a) { return glicko2->Rating(a); }),
                glicko2->options().initial, glicko2_sequence_, ids, scratch_.glicko2_before, delta);
  }
  deltas->resize(used);
  ScheduleMl(game_id,
             event_time != nullptr ? *event_time : google::protobuf::Timestamp::default_instance(),
             record_time_ms, ml_job);
  return Outcome::kApplied;
}

void LivePool::CaptureBefore(const ratings::Result& result) {
  // Ratings and ranks before the result, per model (nullopt: the agent is new).
  Before& elo_before = scratch_.elo_before;
  Before& sco_before = scratch_.sco_before;
  Before& glicko2_before = scratch_.glicko2_before;
  elo_before.clear();
  sco_before.clear();
  glicko2_before.clear();
  for (const ratings::Standing& s : result.standings) {
    const ratings::AgentId* id = pool_.index().Find(s.agent);
    const auto before = [&](const ratings::RankedOrder& order) {
      return id ? std::optional(std::pair(order.Rating(*id), order.Rank(*id))) : std::nullopt;
    };
    elo_before.push_back(pool_.elo() ? before(elo_order_) : std::nullopt);
    sco_before.push_back(pool_.sco() ? before(sco_order_) : std::nullopt);
    glicko2_before.push_back(pool_.glicko2() ? before(glicko2_order_) : std::nullopt);
  }
}

void LivePool::ScheduleMl(const std::string& game_id, const google::protobuf::Timestamp& event_time,
                          int64_t record_time_ms, std::optional<MlJob>* ml_job) {
  const ratings::MaximalLottery* ml = pool_.ml();
  if (ml == nullptr || ml->refused() || !MlDue(record_time_ms)) return;
  ml_scheduled_results_ = pool_.results();
  ml_scheduled_time_ms_ = std::max<int64_t>(record_time_ms, -1);
  MlJob job;
  job.pool = name_;
  job.sequence = ++ml_sequence_;
  job.results = pool_.results();
  job.game_id = game_id;
  job.event_time = event_time;
  job.copy = std::make_shared<ratings::Pool>(pool_);
  job.max_iterations = ml->options().max_iterations;
  if (config_.ml_solve_work > 0) {
    const uint64_t n = std::max<uint64_t>(1, pool_.index().size());
    job.max_iterations = std::clamp<int64_t>(
        static_cast<int64_t>(std::min<uint64_t>(config_.ml_solve_work / (n * n), INT64_MAX)), 1,
        job.max_iterations);
  }
  *ml_job = std::move(job);
}

bool LivePool::MlDue(int64_t record_time_ms) const {
  const uint64_t since = pool_.results() - ml_scheduled_results_;
  if (config_.ml_solve_every == 0 || since < config_.ml_solve_every) return false;
  if (config_.ml_solve_min_interval <= absl::ZeroDuration()) return true;
  // Untimed records (or a schedule restored from a snapshot that kept no time) fall back
  // to the count; a pool whose results grew by a tenth since the last solve (a burst, a
  // backlog) is not held back either, so the ml ranking lags at most that far behind.
  if (record_time_ms < 0 || ml_scheduled_time_ms_ < 0 || since * 10 >= pool_.results()) {
    return true;
  }
  return record_time_ms - ml_scheduled_time_ms_ >=
         absl::ToInt64Milliseconds(config_.ml_solve_min_interval);
}

void LivePool::AppendDelta(ratings::RankedOrder& order, absl::Span<const double> after,
                           double initial, uint64_t& sequence,
                           absl::Span<const ratings::AgentId> ids, const Before& before,
                           v1::RankingDelta& delta) {
  ++sequence;
  std::vector<std::pair<ratings::AgentId, uint32_t>>& displaced = scratch_.displaced;
  displaced.clear();
  // New agents join the order first (in standing order, at their new rating), then the
  // others move; every agent passed is recorded with its rank before the move.
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= order.size()) {
      // Ids are dense: any new id below this one was added earlier in this loop.
      order.Set(ids[i], after[i], &displaced);
    }
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (before[i].has_value()) order.Set(ids[i], after[i], &displaced);
  }
  absl::flat_hash_map<ratings::AgentId, uint32_t>& first_rank = scratch_.first_rank;
  first_rank.clear();  // rank before this result
  for (size_t i = 0; i < ids.size(); ++i) {
    first_rank[ids[i]] = before[i] ? before[i]->second : 0;
  }
  std::vector<std::pair<uint32_t, ratings::AgentId>>& others = scratch_.others;
  others.clear();  // (new rank, agent)
  for (const auto& [agent, rank] : displaced) {
    if (first_rank.emplace(agent, rank).second) others.emplace_back(0, agent);
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    const double old_rating = before[i] ? before[i]->first : initial;
    const uint32_t old_rank = before[i] ? before[i]->second : 0;
    if (old_rating == after[i] && old_rank == order.Rank(ids[i])) continue;
    v1::AgentChange* c = delta.add_changes();
    c->set_agent(pool_.index().Name(ids[i]));
    c->set_old_rating(old_rating);
    c->set_new_rating(after[i]);
    c->set_old_rank(old_rank);
    c->set_new_rank(order.Rank(ids[i]));
  }
  for (auto& [rank, agent] : others) rank = order.Rank(agent);
  std::sort(others.begin(), others.end());
  size_t listed = 0;
  for (const auto& [rank, agent] : others) {
    if (first_rank[agent] == rank) continue;  // passed and passed back
    if (listed == config_.max_displaced) {
      delta.set_displaced_omitted(delta.displaced_omitted() + 1);
      continue;
    }
    ++listed;
    v1::AgentChange* c = delta.add_changes();
    c->set_agent(pool_.index().Name(agent));
    c->set_old_rating(order.Rating(agent));  // unchanged: not in the result
    c->set_new_rating(order.Rating(agent));
    c->set_old_rank(first_rank[agent]);
    c->set_new_rank(rank);
  }
}

MlSolution LivePool::Solve(MlJob job) {
  MlSolution solution;
  ratings::MaximalLottery& ml = *job.copy->mutable_ml();
  absl::StatusOr<ratings::SolveStats> stats = ml.Solve(job.max_iterations);
  solution.converged = stats.ok() && stats->converged;
  solution.lottery = ml.Lottery();
  solution.rating = ml.Ratings();
  solution.exploitability = ml.Exploitability();
  solution.iterations = ml.iterations();
  solution.job = std::move(job);
  return solution;
}

v1::RankingDelta LivePool::AcceptMlSolution(const MlSolution& solution) {
  const ratings::Pool& copy = *solution.job.copy;
  // Probabilities and ratings within the target exploitability tie (docs/MODELS.md §4).
  const std::vector<ratings::RankedAgent> ranked = ratings::RankByProbabilityThenRating(
      solution.lottery, solution.rating, copy.index(), copy.ml()->options().target_exploitability);
  v1::RankingDelta delta;
  delta.set_pool(name_);
  delta.set_model(std::string(ratings::ModelName(ratings::Model::kMl)));
  delta.set_sequence(solution.job.sequence);
  delta.set_game_id(solution.job.game_id);
  delta.set_results(solution.job.results);
  *delta.mutable_event_time() = solution.job.event_time;
  const size_t n = solution.lottery.size();
  std::vector<uint32_t> rank(n, 0);
  for (const ratings::RankedAgent& r : ranked) rank[r.id] = r.rank;
  ml_last_rank_.resize(n, 0);
  ml_last_rating_.resize(n, 0.0);
  ml_last_lottery_.resize(n, 0.0);
  for (const ratings::RankedAgent& r : ranked) {
    const ratings::AgentId a = r.id;
    if (ml_last_rank_[a] == rank[a] && ml_last_rating_[a] == solution.rating[a]) continue;
    v1::AgentChange* c = delta.add_changes();
    c->set_agent(copy.index().Name(a));
    c->set_old_rating(ml_last_rating_[a]);
    c->set_new_rating(solution.rating[a]);
    c->set_old_rank(ml_last_rank_[a]);
    c->set_new_rank(rank[a]);
  }
  ml_last_rank_ = std::move(rank);
  ml_last_rating_ = solution.rating;
  ml_last_lottery_ = solution.lottery;
  ml_last_games_ = copy.games().results();
  ml_exploitability_ = solution.exploitability;
  ml_iterations_ = solution.iterations;
  ml_converged_ = solution.converged;
  return delta;
}

uint64_t LivePool::sequence(ratings::Model model) const {
  switch (model) {
    case ratings::Model::kElo:
      return elo_sequence_;
    case ratings::Model::kSco:
      return sco_sequence_;
    case ratings::Model::kMl:
      return ml_sequence_;
    case ratings::Model::kGlicko2:
      return glicko2_sequence_;
  }
  return 0;
}

const ratings::RankedOrder& LivePool::Order(ratings::Model model) const {
  switch (model) {
    case ratings::Model::kElo:
      return elo_order_;
    case ratings::Model::kGlicko2:
      return glicko2_order_;
    default:
      return sco_order_;
  }
}

std::vector<uint32_t> LivePool::Ranks(ratings::Model model) const {
  const size_t n = pool_.index().size();
  std::vector<uint32_t> out(n, 0);
  if (model == ratings::Model::kMl) {
    std::copy(ml_last_rank_.begin(), ml_last_rank_.end(), out.begin());
    return out;
  }
  const ratings::RankedOrder& order = Order(model);
  for (size_t a = 0; a < order.size(); ++a) out[a] = order.Rank(static_cast<ratings::AgentId>(a));
  return out;
}

v1::RatingReport LivePool::Report(ratings::Model model, size_t limit) const {
  const absl::string_view name = ratings::ModelName(model);
  v1::RatingReport report;
  report.set_method(std::string(name));
  report.set_agents(static_cast<uint32_t>(pool_.index().size()));
  report.set_results(static_cast<uint32_t>(pool_.results()));
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = ModelParamsStruct(name, pool_.options());
  // ratingd has no seed (the online models draw nothing); 0 keeps the document's shape.
  extra["seed"].set_number_value(0);
  const ratings::RankedOrder& order = Order(model);
  // With inactive agents to leave out, the limit applies after they are.
  const size_t n = limit == 0 || pool_.activity() ? order.size() : std::min(limit, order.size());
  for (uint32_t rank = 1; rank <= n; ++rank) {
    v1::RankedAgent* r = report.add_ranking();
    r->set_rank(rank);
    r->set_agent(pool_.index().Name(order.At(rank)));
    r->set_rating(order.Rating(order.At(rank)));
  }
  AddUncertainty(model, pool_, bootstrap(), Provisional(), *report.mutable_ranking());
  ApplyInactivity(pool_, /*include_inactive=*/false, *report.mutable_ranking());
  if (limit != 0 && static_cast<size_t>(report.ranking_size()) > limit) {
    report.mutable_ranking()->DeleteSubrange(static_cast<int>(limit),
                                             report.ranking_size() - static_cast<int>(limit));
  }
  if (model == ratings::Model::kGlicko2) AddLatestEventTime(*pool_.glicko2(), report);
  return report;
}

v1::Leaderboard LivePool::Leaderboard(ratings::Model model) const {
  const absl::string_view name = ratings::ModelName(model);
  v1::Leaderboard board;
  board.set_pool(name_);
  board.set_model(std::string(name));
  board.set_sequence(sequence(model));
  board.set_agents(static_cast<uint32_t>(pool_.index().size()));
  board.set_results(pool_.results());
  *board.mutable_params() = ModelParamsStruct(name, pool_.options());
  if (model == ratings::Model::kMl) {
    std::vector<std::pair<uint32_t, ratings::AgentId>> ranked;
    for (size_t a = 0; a < ml_last_rank_.size(); ++a) {
      if (ml_last_rank_[a] > 0) ranked.emplace_back(ml_last_rank_[a], a);
    }
    std::sort(ranked.begin(), ranked.end());
    for (const auto& [rank, a] : ranked) {
      v1::RankedAgent* r = board.add_ranking();
      r->set_rank(rank);
      r->set_agent(pool_.index().Name(a));
      r->set_rating(ml_last_rating_[a]);
      // As AddUncertainty sets them, from the games at the solve.
      r->set_games(static_cast<uint32_t>(std::min<uint64_t>(ml_last_games_[a], UINT32_MAX)));
      r->set_provisional(ml_last_games_[a] < config_.provisional_games);
      (*board.mutable_lottery())[r->agent()] = ml_last_lottery_[a];
    }
    ApplyInactivity(pool_, /*include_inactive=*/true, *board.mutable_ranking());
    board.set_agents(static_cast<uint32_t>(ml_last_rank_.size()));
    board.set_results(ml_scheduled_results_);
    board.set_exploitability(ml_exploitability_);
    board.set_iterations(ml_iterations_);
    board.set_converged(ml_converged_);
    return board;
  }
  const ratings::RankedOrder& order = Order(model);
  for (uint32_t rank = 1; rank <= order.size(); ++rank) {
    v1::RankedAgent* r = board.add_ranking();
    r->set_rank(rank);
    r->set_agent(pool_.index().Name(order.At(rank)));
    r->set_rating(order.Rating(order.At(rank)));
  }
  AddUncertainty(model, pool_, bootstrap(), Provisional(), *board.mutable_ranking());
  ApplyInactivity(pool_, /*include_inactive=*/true, *board.mutable_ranking());
  return board;
}

}  // namespace ratingd
