// Live uncertainty of the online models (docs/MODELS.md §5.6): R online bootstrap replicas of
// Elo and SCO, each fed every result with its own Poisson(1) weight (the online bagging of
// Oza and Russell [OB]; Poisson(1) counts approximate the multinomial counts of a bootstrap
// resample). The spread of an agent's replica ratings estimates the sampling spread of its
// rating, so the 95% interval is the point rating ± 1.96 standard deviations of its replicas.
//
//   OnlineBootstrap b = *OnlineBootstrap::Create({.replicas = 16, .seed = NameSeed("chess")},
//                                                elo_options, sco_options);
//   b.Resize(n);
//   b.Update(indexed_result, results_before_it);   // the same draws on every replay
//   b.Update(pool);   // or: the result pool.Apply() just applied
//   std::vector<RatingInterval> ci = b.EloIntervals(elo.ratings());
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ratings/agent_index.h"
#include "ratings/batch/rating_intervals.h"
#include "ratings/elo.h"
#include "ratings/pool.h"
#include "ratings/result.h"
#include "ratings/sco.h"

namespace ratings {

// Replicas allowed: 0 (off) or 2..kMaxReplicas (one replica has no spread).
inline constexpr uint32_t kMaxReplicas = 256;

struct OnlineBootstrapOptions {
  uint32_t replicas = 16;
  // Every draw is a function of (seed, result index, replica): ratingd seeds a pool by
  // NameSeed(pool name), so a replay of the same results draws the same weights.
  uint64_t seed = 0;
};

// Everything that determines the replicas' future, for snapshots: agent-major ratings
// (agent a's replicas at [a * replicas, (a + 1) * replicas)); empty for a model that is off.
struct OnlineBootstrapState {
  uint32_t replicas = 0;
  std::vector<double> elo = {};
  std::vector<double> sco = {};
};

// A stable 64-bit seed from a name (FNV-1a), the same on every platform and run.
uint64_t NameSeed(absl::string_view name);

// A Poisson(1) count from 32 uniform bits, by inversion against the distribution's
// cumulative probabilities rounded to multiples of 2^-32: each count's probability is
// exact to 2^-32; counts above 12 (probability 6e-11) are never drawn.
uint32_t PoissonOne(uint32_t bits);

// The Poisson(1) counts of result `index` for replicas 0..counts.size()-1: SplitMix64
// from (seed, index), two 32-bit draws per output.
void DrawCounts(uint64_t seed, uint64_t index, absl::Span<uint32_t> counts);

// x rounded to the nearest integer, ties to even, inline (no libm call), bit for bit as
// Eigen's rint() computes the vectorised lanes on SSE2: 2^52 added to |x| and taken away,
// the sign put back when x < 0. The same as std::nearbyint in the default rounding mode,
// except that -0.0 gives +0.0.
inline double RoundHalfEven(double x) {
  constexpr double kTwo52 = 0x1p52;
  const double magnitude = std::abs(x);
  if (!(magnitude < kTwo52)) return x;  // a whole number already, or not a number
  const double rounded = (magnitude + kTwo52) - kTwo52;
  return x < 0 ? -rounded : rounded;
}

// The grid a model's replica ratings are kept on (docs/MODELS.md §5.6): every replica rating
// is n * step for an integer n, rounded there after each update (to nearest, ties to even).
// step = 1/1024 of the model's largest move per unit of weight: K/1024 Elo points (1/1024
// when K = 0), and SCO's min(alpha/tau, max - min)/1024. A snapshot then stores each
// replica as the integer steps from its point rating, exactly.
struct ReplicaGrid {
  double step = 1.0;
  double inverse = 1.0;  // 1 / step
  // The grid values nearest inside the model's range (SCO's [min, max]; Elo: unbounded).
  double lowest = -std::numeric_limits<double>::infinity();
  double highest = std::numeric_limits<double>::infinity();

  // The grid value nearest x, within [lowest, highest]. Exact round trip: Snap(n * step)
  // == n * step for |n| < 2^50.
  double Snap(double x) const {
    return std::clamp(RoundHalfEven(x * inverse) * step, lowest, highest);
  }
  // The integer n nearest x / step (Snap(x) == n * step where no end clamps it).
  double Steps(double x) const { return RoundHalfEven(x * inverse); }
};
ReplicaGrid EloReplicaGrid(const EloOptions& options);
ReplicaGrid ScoReplicaGrid(const ScoOptions& options);

// Not thread-safe; one owner. Memory: 8 bytes per agent, replica and model on. Update()
// costs O(k^2 R), vectorised across the replicas; it touches only the result's agents.
class OnlineBootstrap {
 public:
  // InvalidArgument unless replicas is in 2..kMaxReplicas and at least one model is given
  // (their options are checked as Elo::Create and Sco::Create check them).
  static absl::StatusOr<OnlineBootstrap> Create(const OnlineBootstrapOptions& options,
                                                const std::optional<EloOptions>& elo,
                                                const std::optional<ScoOptions>& sco);

  // Grows to n agents, every replica of a new agent at the model's starting rating.
  void Resize(size_t n);
  // Applies result number `index` (0-based, in the pool's order) to replica r with weight
  // result.weight * count_r, the counts from DrawCounts(seed, index): the model's own
  // update (Elo::Update, Sco::Update) with that weight, each moved rating then snapped to
  // the model's grid. Precondition: every id < size().
  void Update(const IndexedResult& result, uint64_t index);
  // The same for the result `pool` applied last (Pool::last_applied()), result number
  // pool.results() - 1 of the pool; grows to the pool's agents first.
  void Update(const Pool& pool);

  // 95% intervals around the point ratings `point` (by agent id, size() of them):
  // point ± kZ95 · s, s the standard deviation (n - 1) of the agent's replicas; SCO's are
  // cut to [min, max], which holds the point. The interval always holds the point rating.
  // Precondition: the model is on and point.size() == size().
  std::vector<RatingInterval> EloIntervals(absl::Span<const double> point) const;
  std::vector<RatingInterval> ScoIntervals(absl::Span<const double> point) const;
  // The same for one agent a < size(), around its point rating.
  RatingInterval EloInterval(AgentId a, double point) const;
  RatingInterval ScoInterval(AgentId a, double point) const;

  // Agent a's replica ratings (replicas() of them). Precondition: the model is on.
  absl::Span<const double> EloReplicas(AgentId a) const;
  absl::Span<const double> ScoReplicas(AgentId a) const;

  OnlineBootstrapState ExportState() const;
  // The replicas as whole grid steps from each agent's point rating on the grid, agent-major
  // (out[a * replicas() + r] = grid.Steps(replica) - grid.Steps(point[a])): the snapshot
  // form, exact, and small integers where replicas stay near the point. Preconditions: the
  // model is on, point.size() == size(), out.size() == size() * replicas(). With `first`,
  // the steps of agents first, first + 1, ... only, out.size() / replicas() of them (a
  // whole number, ending at or before size()): out[(a - first) * replicas() + r].
  void EloSteps(absl::Span<const double> point, absl::Span<int64_t> out, size_t first = 0) const;
  void ScoSteps(absl::Span<const double> point, absl::Span<int64_t> out, size_t first = 0) const;
  // Replaces the replicas of the size() agents (Resize first), each snapped to its model's
  // grid (values exported from a pool are on it already). InvalidArgument naming the problem
  // if the replica count differs from the options', a model's vector is not size() * replicas
  // (empty for a model that is off), or a value is not finite (SCO: outside [min, max]).
  absl::Status Restore(const OnlineBootstrapState& state);
  // Restore() from the steps form, given the point ratings it was taken against (empty spans
  // for a model that is off); the same errors, but on an error the replicas are left partly
  // restored (the caller discards them: ratingd refuses the snapshot).
  absl::Status RestoreSteps(uint32_t replicas, absl::Span<const int64_t> elo,
                            absl::Span<const int64_t> sco, absl::Span<const double> elo_point,
                            absl::Span<const double> sco_point);
  // The same from a source of steps read in order (agent-major, as above): `count` steps per
  // model, read one agent's row at a time (`read` fills its span with the next
  // replicas() steps; called size() times at most).
  struct StepSource {
    size_t count = 0;
    absl::FunctionRef<void(absl::Span<int64_t>)> read;
  };
  absl::Status RestoreSteps(uint32_t replicas, StepSource elo, StepSource sco,
                            absl::Span<const double> elo_point, absl::Span<const double> sco_point);
  // Every replica of every agent at the point rating: a state saved before replicas
  // existed. Sizes as Restore (one value per agent).
  absl::Status StartAtPoint(absl::Span<const double> elo, absl::Span<const double> sco);

  uint32_t replicas() const { return options_.replicas; }
  size_t size() const { return size_; }
  bool has_elo() const { return elo_options_.has_value(); }
  bool has_sco() const { return sco_options_.has_value(); }
  // Preconditions: the model is on.
  const ReplicaGrid& elo_grid() const { return elo_grid_; }
  const ReplicaGrid& sco_grid() const { return sco_grid_; }

 private:
  OnlineBootstrap(const OnlineBootstrapOptions& options, const std::optional<EloOptions>& elo,
                  const std::optional<ScoOptions>& sco);
  void UpdateElo(const IndexedResult& result);
  void UpdateSco(const IndexedResult& result);
  RatingInterval Interval(const std::vector<double>& replicas, AgentId a, double point, double min,
                          double max) const;
  // RestoreSteps for one model: `steps` decoded against `point` into the rows of `into`.
  absl::Status RestoreStepRows(const char* model, const StepSource& steps,
                               absl::Span<const double> point, bool on, double min, double max,
                               const ReplicaGrid& grid, std::vector<double>& into) const;
  // Checks `count` values, value(a, i) agent a's replica i, and writes them snapped into
  // the rows of `into`.
  template <typename Value>
  absl::Status RestoreModel(const char* model, size_t count, const Value& value, bool on,
                            double min, double max, const ReplicaGrid& grid,
                            std::vector<double>& into) const;
  absl::Status CheckReplicaCount(uint32_t replicas) const;
  void ExportSteps(const std::vector<double>& rows, const ReplicaGrid& grid,
                   absl::Span<const double> point, absl::Span<int64_t> out, size_t first) const;

  OnlineBootstrapOptions options_;
  std::optional<EloOptions> elo_options_;
  std::optional<ScoOptions> sco_options_;
  ReplicaGrid elo_grid_;
  ReplicaGrid sco_grid_;
  // Replicas padded to whole SIMD packets: agent a's row is [a * stride_, a * stride_ +
  // replicas). The padding has weight 0 and never moves.
  size_t stride_ = 0;
  size_t size_ = 0;
  std::vector<double> elo_;
  std::vector<double> sco_;
  // Scratch for Update(), kept to avoid allocations per result.
  std::vector<uint32_t> counts_;
  std::vector<double> weights_;  // stride_: result.weight * count_r, 0 in the padding
  std::vector<double> moves_;    // k blocks of replicas
  // k blocks of exponentials, one per agent (online_bootstrap.cc, RelativeExps).
  std::vector<float> exps_;
};

}  // namespace ratings
