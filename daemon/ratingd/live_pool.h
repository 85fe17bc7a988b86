// One pool inside ratingd (docs/ARCHITECTURE.md §1): the ratings::Pool, its de-duplication
// window, the sorted rankings deltas are computed from, and the per-model output sequence
// numbers.
// No Kafka here: the consumer loop feeds it decoded results and publishes what it returns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "daemon/pool_report.h"
#include "daemon/ratingd/dedup_window.h"
#include "daemon/ratingd/model_snapshots.h"
#include "google/protobuf/timestamp.pb.h"
#include "ratingd/v1/delta.pb.h"
#include "ratingd/v1/report.pb.h"
#include "ratingd/v1/snapshot.pb.h"
#include "ratings/model.h"
#include "ratings/online_bootstrap.h"
#include "ratings/pool.h"
#include "ratings/pool_history.h"
#include "ratings/ranked_order.h"

namespace ratingd {

struct LivePoolConfig {
  ratings::PoolOptions options = {};  // models, parameters, limits
  size_t dedup_window = 100'000;      // game ids remembered per pool
  // The ml schedule (docs/ARCHITECTURE.md §3, MlDue): a solve is due once ml_solve_every
  // results have been applied since the last one (0 = never), and, when the interval is not
  // zero, once that much record time has passed since it, or the pool's results have grown
  // by a tenth since it. ratingd's --ml-solve-min-interval defaults to 1 s.
  uint64_t ml_solve_every = 100;
  absl::Duration ml_solve_min_interval = absl::ZeroDuration();
  // The work of one scheduled solve, in margin-matrix entries visited (iterations × n²): a
  // solve of an n-agent pool runs at most max(1, ml_solve_work / n²) iterations (and at
  // most ml.max_iterations). 0 = no bound. ratingd's --ml-solve-work defaults to 5·10⁸, so
  // that a solve of a large pool, which the commit waits for, cannot hold a transaction open
  // for long (docs/ARCHITECTURE.md §3).
  uint64_t ml_solve_work = 0;
  size_t max_displaced = 1'000;  // rank-only changes listed per delta
  // Online bootstrap replicas of elo and sco per pool (docs/MODELS.md §5.6), seeded by the
  // pool's name: 0 = no intervals, else 2..ratings::kMaxReplicas.
  uint32_t bootstrap_replicas = 16;
  // An agent in fewer results than this is published as provisional; so is a glicko2 entry
  // whose reported deviation is above provisional_rd.
  uint64_t provisional_games = 20;
  double provisional_rd = 110;
  // Rating-history points kept per agent and model of kPerResultModels (docs/MODELS.md
  // §11): 0 = no history, else at least 4. ratingd's --history-points defaults to 128.
  size_t history_points = 0;
  // A pool of more agents than this keeps no history: its histories are dropped at the
  // result that takes it past the bound, and a snapshot of it restores none (MODELS.md
  // §11.1). 0 = no bound. ratingd's --history-max-agents defaults to 10,000.
  size_t history_max_agents = 0;
};

// The models with one delta per applied result, in the order LivePool::Apply returns their
// deltas (those the pool has on).
inline constexpr std::array<ratings::Model, 3> kPerResultModels = {
    ratings::Model::kElo, ratings::Model::kSco, ratings::Model::kGlicko2};

// A scheduled ml solve: a copy of the pool taken right after result `results`, to be
// solved off the consumer thread (MaximalLottery::Solve on the copy; the live pool's own
// solver state is never touched, so solves cannot make the state depend on timing).
struct MlJob {
  std::string pool;
  uint64_t sequence = 0;
  uint64_t results = 0;
  std::string game_id;
  google::protobuf::Timestamp event_time;
  std::shared_ptr<ratings::Pool> copy;
  int64_t max_iterations = 1;  // of the solve (LivePoolConfig::ml_solve_work)
};

// The solved copy, handed back to the consumer thread.
struct MlSolution {
  MlJob job;
  std::vector<double> lottery;  // by agent id
  std::vector<double> rating;   // (M p)(a) / max|M|
  double exploitability = 0.0;
  uint64_t iterations = 0;
  bool converged = false;
};

// A pool's snapshot as taken on the consumer thread (LivePool::CaptureSnapshot): its bytes
// but for the histories, and the histories' points, shared.
struct PoolCapture {
  std::string before;  // PoolSnapshot fields before the histories
  std::vector<HistoryCapture> histories;
  std::string after;  // the replica steps and the open window's game ids
};
// The captured pool as field `field` of the enclosing message. Any thread.
void AppendPoolCapture(uint32_t field, const PoolCapture& capture, std::string& out);

class LivePool {
 public:
  static absl::StatusOr<std::unique_ptr<LivePool>> Create(std::string name,
                                                          const LivePoolConfig& config);
  // InvalidArgument naming the problem if the snapshot does not fit the configuration.
  // Takes the snapshot by value: agent names and game ids are moved out of it. `segments`:
  // the sealed de-duplication segments the snapshot refers to, in order (none for format 1).
  static absl::StatusOr<std::unique_ptr<LivePool>> FromSnapshot(
      v1::PoolSnapshot snapshot, const LivePoolConfig& config,
      std::vector<DedupWindow::Segment> segments = {});
  LivePool(const LivePool&) = delete;
  LivePool& operator=(const LivePool&) = delete;

  // Format 2: the de-duplication window's sealed segments are referred to, not included
  // (dedup_window().sealed() has them).
  v1::PoolSnapshot ToSnapshot() const;
  // ToSnapshot() in two steps (docs/ARCHITECTURE.md §4.2, §5): CaptureSnapshot, on the
  // consumer thread, writes the pool's bytes but for the histories, whose points it shares
  // (O(agents)); AppendPoolCapture, on any thread, appends them to `out` as field `field`
  // of the enclosing message (a Snapshot's `pools`), the histories written straight from
  // their points. Parses to ToSnapshot() as it was at the capture.
  PoolCapture CaptureSnapshot() const;
  void AppendSnapshot(uint32_t field, std::string& out) const {
    AppendPoolCapture(field, CaptureSnapshot(), out);
  }
  const DedupWindow& dedup_window() const { return dedup_; }
  DedupWindow& dedup_window() { return dedup_; }

  enum class Outcome { kApplied, kDuplicate };
  // Applies a result unless its game id is in the window (kDuplicate: nothing changes).
  // Replaces *deltas by one delta per enabled model of kPerResultModels, in that order
  // (sequence + 1 each; the messages already there are reused, so a caller keeping the
  // vector allocates little), and sets *ml_job when an ml solve is due (MlDue).
  // `event_time`: the result's (null if it has none: glicko2 then takes the pool's latest;
  // the deltas carry an empty one). `record_time_ms`: the results record's timestamp (Unix
  // ms, negative if it has none), the clock of the ml schedule. InvalidArgument if the result
  // is invalid (callers validate first; the pool is then unchanged).
  absl::StatusOr<Outcome> Apply(const ratings::Result& result, const std::string& game_id,
                                const google::protobuf::Timestamp* event_time,
                                int64_t record_time_ms, std::vector<v1::RankingDelta>* deltas,
                                std::optional<MlJob>* ml_job);

  // Solves a job's copy (any thread).
  static MlSolution Solve(MlJob job);
  // Takes a solution of this pool, in job order, and returns its delta against the
  // previous one (every agent whose ml rank or rating changed).
  v1::RankingDelta AcceptMlSolution(const MlSolution& solution);

  // The `ratingctl rate` report of the elo, sco or glicko2 model (PoolReport's output with seed 0,
  // from the kept order: O(limit), plus O(agents · replicas) for the intervals); limit 0 =
  // all agents. Not for ml (use PoolReport on a copy). Like the leaderboard, every entry
  // has games and provisional, and with replicas its interval and rank interval.
  v1::RatingReport Report(ratings::Model model, size_t limit) const;

  // The full leaderboard of a model. Every entry has `games` and `provisional`; elo's and
  // sco's also `ci_low`, `ci_high`, `rank_low` and `rank_high` when the pool keeps replicas
  // (docs/MODELS.md §5.6); glicko2's those four from its deviation, and `rd`, `volatility`
  // and `last_played` (§10). With --inactive-after, the inactive agents come after the
  // ranked ones, marked `inactive`, without a rank (§12); Report leaves them out. ml's is the last
  // accepted solution's: its ranking, lottery, exploitability, iterations and convergence, and the
  // pool's `agents`, `results` and entries' games at that solve (empty, 0 and 0 before the first):
  // `ratingctl rate --method ml` on the results that solve saw.
  v1::Leaderboard Leaderboard(ratings::Model model) const;

  const std::string& name() const { return name_; }
  // The model's rating history of every agent; null when the pool keeps none for it.
  const ratings::PoolHistory* history(ratings::Model model) const;
  const ratings::Pool& pool() const { return pool_; }
  // Null when the pool keeps no replicas.
  const ratings::OnlineBootstrap* bootstrap() const { return bootstrap_ ? &*bootstrap_ : nullptr; }
  // The model's last output sequence number (elo, sco, glicko2: results applied; ml: solves
  // scheduled).
  uint64_t sequence(ratings::Model model) const;
  double ml_exploitability() const { return ml_exploitability_; }
  // 1-based rank of each agent in the model's current ranking (ml: last solution; 0 =
  // unranked), for the rank-disagreement metric.
  std::vector<uint32_t> Ranks(ratings::Model model) const;

 private:
  LivePool(std::string name, const LivePoolConfig& config, ratings::Pool pool);
  // ToSnapshot without the game ids: the message form, the reference for AppendSnapshot.
  v1::PoolSnapshot ToSnapshotWithoutGameIds() const;
  // The snapshot but for the game ids, the per-agent columns (names, ratings, game counts,
  // replica steps) and the histories, which AppendSnapshot writes by hand.
  v1::PoolSnapshot SnapshotHead() const;
  // The per-agent columns before the histories (names, ratings, game counts), and the
  // replica steps after them.
  void AppendColumns(std::string& out) const;
  void AppendReplicaSteps(std::string& out) const;
  // Calls visit(steps) on the replica steps of each block of agents, in order (elo's or
  // sco's; nothing if the model keeps no replicas).
  template <typename Visit>
  void ForEachStepBlock(bool elo_model, const Visit& visit) const;
  // The kept order of elo, sco or glicko2.
  const ratings::RankedOrder& Order(ratings::Model model) const;
  ProvisionalRule Provisional() const {
    return {.games = config_.provisional_games, .rd = config_.provisional_rd};
  }
  // The replicas `config` asks for, of pool `name`'s `agents` agents at the start (none if
  // it asks for none, or if neither elo nor sco is on).
  static absl::StatusOr<std::optional<ratings::OnlineBootstrap>> CreateBootstrap(
      const LivePoolConfig& config, const std::string& name, size_t agents);
  // The replicas from a snapshot (FromSnapshot), or from the point ratings of `state` when
  // the snapshot has none or another number of them.
  static absl::StatusOr<std::optional<ratings::OnlineBootstrap>> RestoreBootstrap(
      const LivePoolConfig& config, const v1::PoolSnapshot& s, const ratings::PoolState& state);
  // Apply's steps: each standing's rating and rank before the result, per model, into
  // scratch_; and the ml job, when the result is one at which a solve is due.
  void CaptureBefore(const ratings::Result& result);
  void ScheduleMl(const std::string& game_id, const google::protobuf::Timestamp& event_time,
                  int64_t record_time_ms, std::optional<MlJob>* ml_job);
  // The histories' part of FromSnapshot and ToSnapshotWithoutGameIds: a snapshot's history
  // of a model the pool keeps no history of is dropped.
  absl::Status RestoreHistories(const v1::PoolSnapshot& s);
  // Drops every history once the pool has more agents than config_.history_max_agents.
  void BoundHistories();
  void SnapshotHistories(v1::PoolSnapshot& s) const;
  // Position of `model` in kPerResultModels.
  static size_t PerResultIndex(ratings::Model model);
  // Whether the result just applied, in a record stamped record_time_ms, makes an ml solve
  // due (LivePoolConfig: the count, then the time or the catch-up bound).
  bool MlDue(int64_t record_time_ms) const;
  // One model's delta: `after` holds the new rating of each standing (ids[i]'s), `before`
  // its rating and rank before the result (nullopt: new; its old rating is then `initial`).
  void AppendDelta(ratings::RankedOrder& order, absl::Span<const double> after, double initial,
                   uint64_t& sequence, absl::Span<const ratings::AgentId> ids,
                   const std::vector<std::optional<std::pair<double, uint32_t>>>& before,
                   v1::RankingDelta& delta);

  std::string name_;
  LivePoolConfig config_;
  ratings::Pool pool_;
  std::optional<ratings::OnlineBootstrap> bootstrap_;
  DedupWindow dedup_;
  ratings::RankedOrder elo_order_;
  ratings::RankedOrder sco_order_;
  ratings::RankedOrder glicko2_order_;
  uint64_t elo_sequence_ = 0;
  uint64_t sco_sequence_ = 0;
  uint64_t glicko2_sequence_ = 0;
  std::array<std::optional<ratings::PoolHistory>, kPerResultModels.size()> histories_;
  uint64_t ml_sequence_ = 0;
  // The pool's result count and the record time (-1: none) at the last scheduled solve.
  uint64_t ml_scheduled_results_ = 0;
  int64_t ml_scheduled_time_ms_ = -1;
  std::vector<uint32_t> ml_last_rank_;
  std::vector<double> ml_last_rating_;
  std::vector<double> ml_last_lottery_;
  std::vector<uint64_t> ml_last_games_;  // each agent's results at the last solve
  double ml_exploitability_ = 0.0;
  uint64_t ml_iterations_ = 0;
  bool ml_converged_ = false;

  // Per-result buffers, kept to avoid allocations on the hot path.
  struct Scratch {
    std::vector<std::optional<std::pair<double, uint32_t>>> elo_before, sco_before, glicko2_before;
    std::vector<double> after;  // new ratings by standing
    std::vector<std::pair<ratings::AgentId, uint32_t>> displaced;
    absl::flat_hash_map<ratings::AgentId, uint32_t> first_rank;
    std::vector<std::pair<uint32_t, ratings::AgentId>> others;
  };
  Scratch scratch_;
};

}  // namespace ratingd
