// A live pool in snapshots (docs/ARCHITECTURE.md §5): LivePool's snapshot members, its
// part of the codec of which partition_snapshot.cc holds the partition's part.
#include <cassert>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/model_snapshots.h"
#include "daemon/ratingd/wire_format.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

template <typename T>
std::vector<T> ToVector(const google::protobuf::RepeatedField<T>& field) {
  return {field.begin(), field.end()};
}

// The regret-matching state of pool `pool`'s snapshot.
absl::StatusOr<ratings::MaximalLotteryState> MlStateOf(const v1::MlSnapshot& m,
                                                       const std::string& pool) {
  ratings::MaximalLotteryState ml;
  ml.refused = m.refused();
  ml.size = m.size();
  if (m.n_row_size() != m.n_col_size() || m.n_row_size() != m.n_value_size()) {
    return absl::InvalidArgumentError(absl::StrCat("pool '", pool, "': ml counts disagree"));
  }
  for (int i = 0; i < m.n_row_size(); ++i) {
    ml.counts.push_back({m.n_row(i), m.n_col(i), m.n_value(i)});
  }
  ml.regrets = ToVector(m.regrets());
  ml.last_regret = ToVector(m.last_regret());
  ml.average_sum = ToVector(m.average_sum());
  ml.average_weight = m.average_weight();
  ml.iterations = m.iterations();
  ml.averaging_step = m.averaging_step();
  return ml;
}

// The replicas of a snapshot into `bootstrap`, created for its agents.
absl::Status RestoreReplicas(const v1::PoolSnapshot& s, const ratings::PoolState& state,
                             ratings::OnlineBootstrap& bootstrap) {
  if (s.bootstrap_replicas() != bootstrap.replicas()) {
    // A snapshot without replicas (format 1 or 2, or taken with none), or with another
    // number of them: every replica starts at the point rating (docs/MODELS.md §5.6).
    return bootstrap.StartAtPoint(state.elo, state.sco);
  }
  if (s.elo_replicas_size() > 0 || s.sco_replicas_size() > 0) {  // format 3: the values
    return bootstrap.Restore({.replicas = s.bootstrap_replicas(),
                              .elo = ToVector(s.elo_replicas()),
                              .sco = ToVector(s.sco_replicas())});
  }
  const int64_t elo_count = wire::CountVarints(s.elo_replica_steps());
  const int64_t sco_count = wire::CountVarints(s.sco_replica_steps());
  if (elo_count < 0 || sco_count < 0) {
    return absl::InvalidArgumentError(absl::StrCat("bootstrap: ", elo_count < 0 ? "elo" : "sco",
                                                   ": the replica steps are not varints"));
  }
  wire::Sint64Reader elo(s.elo_replica_steps()), sco(s.sco_replica_steps());
  return bootstrap.RestoreSteps(
      s.bootstrap_replicas(),
      {static_cast<size_t>(elo_count), [&](absl::Span<int64_t> row) { elo.Read(row); }},
      {static_cast<size_t>(sco_count), [&](absl::Span<int64_t> row) { sco.Read(row); }}, state.elo,
      state.sco);
}

// Pools of this many agents restore their replicas on a second thread.
constexpr size_t kParallelRestoreAgents = 4096;

}  // namespace

absl::StatusOr<std::unique_ptr<LivePool>> LivePool::FromSnapshot(
    v1::PoolSnapshot s, const LivePoolConfig& config, std::vector<DedupWindow::Segment> segments) {
  ratings::PoolState state;
  state.agents.reserve(static_cast<size_t>(s.agents_size()));
  for (std::string& name : *s.mutable_agents()) state.agents.push_back(std::move(name));
  state.results = s.results();
  state.elo = ToVector(s.elo());
  state.sco = ToVector(s.sco());
  state.games = ToVector(s.games());
  state.points = ToVector(s.points());
  state.result_counts = ToVector(s.result_counts());
  if (s.has_ml()) {
    ASSIGN_OR_RETURN(state.ml, MlStateOf(s.ml(), s.pool()));
  }
  if (s.has_glicko2()) {
    absl::StatusOr<ratings::Glicko2State> glicko2 = Glicko2FromSnapshot(s.glicko2());
    if (!glicko2.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("pool '", s.pool(), "': ", glicko2.status().message()));
    }
    state.glicko2 = *std::move(glicko2);
  }
  if (s.has_activity()) {
    absl::StatusOr<ratings::ActivityState> activity = ActivityFromSnapshot(s.activity());
    if (!activity.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("pool '", s.pool(), "': ", activity.status().message()));
    }
    state.activity = *std::move(activity);
  }
  // A large pool's replicas are restored on a second thread while this one builds the pool
  // (interning the names) and sorts its rankings: at a million agents each side takes a few
  // hundred milliseconds, and they only read `s` and `state`.
  absl::StatusOr<std::optional<ratings::OnlineBootstrap>> bootstrap;
  const auto restore_replicas = [&] { bootstrap = RestoreBootstrap(config, s, state); };
  std::optional<std::thread> replicas;
  if (state.agents.size() >= kParallelRestoreAgents) {
    replicas.emplace(restore_replicas);
  } else {
    restore_replicas();
  }
  absl::StatusOr<ratings::Pool> pool = ratings::Pool::FromState(config.options, state);
  std::unique_ptr<LivePool> live;
  if (pool.ok()) {
    live.reset(new LivePool(s.pool(), config, *std::move(pool)));
    if (live->pool_.elo()) live->elo_order_.Reset(state.elo);
    if (live->pool_.sco()) live->sco_order_.Reset(state.sco);
    if (const ratings::Glicko2* g = live->pool_.glicko2()) {
      live->glicko2_order_.Reset(g->Ratings());
    }
  }
  if (replicas) replicas->join();
  if (!pool.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pool '", s.pool(), "': ", pool.status().message()));
  }
  if (!bootstrap.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pool '", s.pool(), "': ", bootstrap.status().message()));
  }
  live->bootstrap_ = *std::move(bootstrap);
  const size_t n = state.agents.size();
  if (segments.size() != s.dedup_segments()) {
    return absl::InvalidArgumentError(absl::StrCat("pool '", s.pool(), "': the snapshot refers to ",
                                                   s.dedup_segments(), " de-duplication segments, ",
                                                   segments.size(), " were found"));
  }
  if (absl::Status restored = live->dedup_.Restore(
          std::move(segments), s.dedup_front_skip(), s.dedup_first_segment() + s.dedup_segments(),
          {s.recent_game_ids().begin(), s.recent_game_ids().end()});
      !restored.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("pool '", s.pool(), "': ", restored.message()));
  }
  live->elo_sequence_ = s.elo_sequence();
  live->sco_sequence_ = s.sco_sequence();
  live->ml_sequence_ = s.ml_sequence();
  live->glicko2_sequence_ = s.glicko2_sequence();
  RETURN_IF_ERROR(live->RestoreHistories(s));
  live->BoundHistories();
  // Snapshots before the time-bounded schedule solved every ml_solve_every results.
  live->ml_scheduled_results_ = s.has_ml_scheduled_results()
                                    ? s.ml_scheduled_results()
                                    : s.ml_sequence() * config.ml_solve_every;
  live->ml_scheduled_time_ms_ = s.has_ml_scheduled_time_ms() ? s.ml_scheduled_time_ms() : -1;
  if (live->ml_scheduled_results_ > s.results() || live->ml_scheduled_time_ms_ < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pool '", s.pool(), "': ml schedule (", live->ml_scheduled_results_, " results at ",
        live->ml_scheduled_time_ms_, " ms) does not fit ", s.results(), " results"));
  }
  live->ml_last_rank_ = ToVector(s.ml_last_rank());
  live->ml_last_rating_ = ToVector(s.ml_last_rating());
  live->ml_last_lottery_ = ToVector(s.ml_last_lottery());
  live->ml_exploitability_ = s.ml_last_exploitability();
  live->ml_iterations_ = s.ml_last_iterations();
  live->ml_converged_ = s.ml_last_converged();
  live->ml_last_games_ = ToVector(s.ml_last_games());
  if (live->ml_last_games_.empty()) {  // an earlier snapshot
    const std::vector<uint64_t>& games = live->pool_.games().results();
    live->ml_last_games_.assign(
        games.begin(), games.begin() + static_cast<std::ptrdiff_t>(
                                           std::min(games.size(), live->ml_last_rank_.size())));
  }
  if (live->ml_last_rank_.size() > n ||
      live->ml_last_rating_.size() != live->ml_last_rank_.size() ||
      live->ml_last_lottery_.size() != live->ml_last_rank_.size() ||
      live->ml_last_games_.size() != live->ml_last_rank_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pool '", s.pool(), "': the last ml solution has the wrong size"));
  }
  return live;
}

absl::Status LivePool::RestoreHistories(const v1::PoolSnapshot& s) {
  for (const v1::HistorySnapshot& h : s.histories()) {
    const std::optional<ratings::Model> model = ratings::ParseModel(h.model());
    if (!model.has_value()) continue;  // a model this version does not know
    const size_t i = PerResultIndex(*model);
    if (i == histories_.size() || !histories_[i]) continue;  // no history of it kept now
    absl::StatusOr<ratings::PoolHistoryState> state = HistoryFromSnapshot(h);
    absl::Status restored = state.ok() ? histories_[i]->Restore(*state) : state.status();
    if (!restored.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("pool '", s.pool(), "': ", restored.message()));
    }
  }
  return absl::OkStatus();
}

void LivePool::SnapshotHistories(v1::PoolSnapshot& s) const {
  for (const std::optional<ratings::PoolHistory>& history : histories_) {
    if (history) *s.add_histories() = HistoryToSnapshot(*history);
  }
}

absl::StatusOr<std::optional<ratings::OnlineBootstrap>> LivePool::RestoreBootstrap(
    const LivePoolConfig& config, const v1::PoolSnapshot& s, const ratings::PoolState& state) {
  ASSIGN_OR_RETURN(std::optional<ratings::OnlineBootstrap> bootstrap,
                   CreateBootstrap(config, s.pool(), state.agents.size()));
  if (!bootstrap) return bootstrap;  // replicas in the snapshot are dropped
  RETURN_IF_ERROR(RestoreReplicas(s, state, *bootstrap));
  return bootstrap;
}

v1::PoolSnapshot LivePool::ToSnapshot() const {
  v1::PoolSnapshot s = ToSnapshotWithoutGameIds();
  for (absl::string_view id : dedup_.open()) s.add_recent_game_ids(std::string(id));
  return s;
}

PoolCapture LivePool::CaptureSnapshot() const {
  PoolCapture capture;
  SnapshotHead().AppendToString(&capture.before);
  AppendColumns(capture.before);
  for (const std::optional<ratings::PoolHistory>& history : histories_) {
    if (history) capture.histories.push_back(CaptureHistory(*history));
  }
  AppendReplicaSteps(capture.after);
  constexpr uint32_t kRecentGameIds = v1::PoolSnapshot::kRecentGameIdsFieldNumber;
  for (absl::string_view id : dedup_.open()) {
    wire::AppendLengthDelimited(kRecentGameIds, id, capture.after);
  }
  return capture;
}

void AppendPoolCapture(uint32_t field, const PoolCapture& capture, std::string& out) {
  using S = v1::PoolSnapshot;
  std::vector<HistoryWireSizes> histories;
  size_t size = capture.before.size() + capture.after.size();
  for (const HistoryCapture& history : capture.histories) {
    histories.push_back(MeasureHistoryWire(history));
    size += wire::VarintSize((uint64_t{S::kHistoriesFieldNumber} << 3) | 2) +
            wire::VarintSize(histories.back().total) + histories.back().total;
  }
  out.reserve(out.size() + wire::VarintSize((uint64_t{field} << 3) | 2) + wire::VarintSize(size) +
              size);
  wire::AppendLengthDelimitedKey(field, out);
  wire::AppendVarint(size, out);
  const size_t start = out.size();
  out.append(capture.before);
  for (size_t i = 0; i < histories.size(); ++i) {
    wire::AppendLengthDelimitedKey(S::kHistoriesFieldNumber, out);
    wire::AppendVarint(histories[i].total, out);
    AppendHistoryWire(capture.histories[i], histories[i], out);
  }
  out.append(capture.after);
  // The measured sizes and the bytes agree (PartitionStateTest checks the bytes parse).
  assert(out.size() - start == size);
  (void)start;
}

template <typename Visit>
void LivePool::ForEachStepBlock(bool elo_model, const Visit& visit) const {
  // A block of agents at a time: never a whole column of int64s.
  constexpr size_t kBlock = 4096;  // agents
  if (elo_model ? !bootstrap_->has_elo() : !bootstrap_->has_sco()) return;
  const absl::Span<const double> point =
      elo_model ? pool_.elo()->ratings() : pool_.sco()->ratings();
  const size_t r = bootstrap_->replicas();
  std::vector<int64_t> block;
  for (size_t first = 0; first < point.size(); first += kBlock) {
    block.resize(std::min(kBlock, point.size() - first) * r);
    if (elo_model) {
      bootstrap_->EloSteps(point, absl::MakeSpan(block), first);
    } else {
      bootstrap_->ScoSteps(point, absl::MakeSpan(block), first);
    }
    visit(absl::Span<const int64_t>(block));
  }
}

void LivePool::AppendColumns(std::string& out) const {
  using S = v1::PoolSnapshot;
  for (const std::string& name : pool_.index().names()) {
    wire::AppendLengthDelimited(S::kAgentsFieldNumber, name, out);
  }
  const absl::Span<const double> elo =
      pool_.elo() ? pool_.elo()->ratings() : absl::Span<const double>();
  const absl::Span<const double> sco =
      pool_.sco() ? pool_.sco()->ratings() : absl::Span<const double>();
  wire::AppendPackedDoubles(S::kEloFieldNumber, elo, out);
  wire::AppendPackedDoubles(S::kScoFieldNumber, sco, out);
  wire::AppendPackedDoubles(S::kGamesFieldNumber, pool_.games().games(), out);
  wire::AppendPackedDoubles(S::kPointsFieldNumber, pool_.games().points(), out);
  wire::AppendPackedVarints(S::kResultCountsFieldNumber, pool_.games().results(), out);
}

void LivePool::AppendReplicaSteps(std::string& out) const {
  if (!bootstrap_) return;
  // Each payload's size first (a field's length precedes it), then the payload, a block of
  // agents at a time: never a whole column of int64s.
  const auto steps = [&](uint32_t field, bool elo_model) {
    size_t bytes = 0;
    ForEachStepBlock(elo_model, [&](absl::Span<const int64_t> block) {
      for (int64_t v : block) bytes += wire::VarintSize(wire::ZigZag(v));
    });
    if (bytes == 0) return;
    wire::AppendLengthDelimitedKey(field, out);
    wire::AppendVarint(bytes, out);
    ForEachStepBlock(elo_model,
                     [&](absl::Span<const int64_t> block) { wire::AppendSint64s(block, out); });
  };
  steps(v1::PoolSnapshot::kEloReplicaStepsFieldNumber, true);
  steps(v1::PoolSnapshot::kScoReplicaStepsFieldNumber, false);
}

v1::PoolSnapshot LivePool::ToSnapshotWithoutGameIds() const {
  // The reference form: the columns through the message (AppendSnapshot writes them by hand;
  // PartitionStateTest.SerializedSnapshotParsesToTheSnapshotMessage holds the two equal).
  v1::PoolSnapshot s = SnapshotHead();
  SnapshotHistories(s);
  const ratings::PoolState state = pool_.ExportState();
  s.mutable_agents()->Assign(state.agents.begin(), state.agents.end());
  s.mutable_elo()->Assign(state.elo.begin(), state.elo.end());
  s.mutable_sco()->Assign(state.sco.begin(), state.sco.end());
  s.mutable_games()->Assign(state.games.begin(), state.games.end());
  s.mutable_points()->Assign(state.points.begin(), state.points.end());
  s.mutable_result_counts()->Assign(state.result_counts.begin(), state.result_counts.end());
  if (bootstrap_) {
    std::vector<int64_t> steps(state.elo.size() * bootstrap_->replicas());
    if (bootstrap_->has_elo()) {
      bootstrap_->EloSteps(state.elo, absl::MakeSpan(steps));
      wire::AppendSint64s(steps, *s.mutable_elo_replica_steps());
    }
    steps.resize(state.sco.size() * bootstrap_->replicas());
    if (bootstrap_->has_sco()) {
      bootstrap_->ScoSteps(state.sco, absl::MakeSpan(steps));
      wire::AppendSint64s(steps, *s.mutable_sco_replica_steps());
    }
  }
  return s;
}

v1::PoolSnapshot LivePool::SnapshotHead() const {
  v1::PoolSnapshot s;
  s.set_pool(name_);
  s.set_dedup_first_segment(dedup_.open_seq() - dedup_.sealed().size());
  s.set_dedup_segments(static_cast<uint32_t>(dedup_.sealed().size()));
  s.set_dedup_front_skip(static_cast<uint32_t>(dedup_.front_skip()));
  s.set_results(pool_.results());
  if (bootstrap_) s.set_bootstrap_replicas(bootstrap_->replicas());
  if (const ratings::MaximalLottery* ml = pool_.ml()) {
    const ratings::MaximalLotteryState state = ml->ExportState();
    v1::MlSnapshot& m = *s.mutable_ml();
    m.set_refused(state.refused);
    m.set_size(static_cast<uint32_t>(state.size));
    for (const auto& c : state.counts) {
      m.add_n_row(c.a);
      m.add_n_col(c.b);
      m.add_n_value(c.n);
    }
    m.mutable_regrets()->Assign(state.regrets.begin(), state.regrets.end());
    m.mutable_last_regret()->Assign(state.last_regret.begin(), state.last_regret.end());
    m.mutable_average_sum()->Assign(state.average_sum.begin(), state.average_sum.end());
    m.set_average_weight(state.average_weight);
    m.set_iterations(state.iterations);
    m.set_averaging_step(state.averaging_step);
  }
  s.set_elo_sequence(elo_sequence_);
  s.set_sco_sequence(sco_sequence_);
  s.set_ml_sequence(ml_sequence_);
  if (const ratings::Glicko2* glicko2 = pool_.glicko2()) {
    *s.mutable_glicko2() = Glicko2ToSnapshot(*glicko2);
    s.set_glicko2_sequence(glicko2_sequence_);
  }
  if (const ratings::Activity* activity = pool_.activity()) {
    *s.mutable_activity() = ActivityToSnapshot(*activity);
  }
  s.set_ml_scheduled_results(ml_scheduled_results_);
  s.set_ml_scheduled_time_ms(ml_scheduled_time_ms_);
  s.mutable_ml_last_rank()->Assign(ml_last_rank_.begin(), ml_last_rank_.end());
  s.mutable_ml_last_rating()->Assign(ml_last_rating_.begin(), ml_last_rating_.end());
  s.mutable_ml_last_lottery()->Assign(ml_last_lottery_.begin(), ml_last_lottery_.end());
  s.set_ml_last_exploitability(ml_exploitability_);
  s.set_ml_last_iterations(ml_iterations_);
  s.set_ml_last_converged(ml_converged_);
  s.mutable_ml_last_games()->Assign(ml_last_games_.begin(), ml_last_games_.end());
  return s;
}

}  // namespace ratingd
