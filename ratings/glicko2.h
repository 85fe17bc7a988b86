// Online Glicko-2 in continuous time (docs/MODELS.md §10; [G2] steps 1-8): each result is
// one rating period of its agents, after each agent's deviation has grown for the event
// time since its own last result.
//
//   ASSIGN_OR_RETURN(Glicko2 g, Glicko2::Create({}));
//   g.Resize(index.size());
//   g.Update(result, absl::FromUnixSeconds(t));     // or std::nullopt: no event time
//   double rd = g.Deviation(id);                     // grown to the latest event time
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "ratings/glicko2_period.h"
#include "ratings/result.h"

namespace ratings {

struct RatingInterval;  // ratings/batch/rating_intervals.h

// Rating points per unit of the Glicko-2 scale ([G2] step 2).
inline constexpr double kGlicko2Scale = 173.7178;

// The multiple of RD either side of a rating that makes its published 95% interval
// (rating ± 1.96·RD, as Glickman and lichess print it; docs/MODELS.md §10).
inline constexpr double kGlicko2IntervalZ = 1.96;

struct Glicko2Options {
  double initial = 1500.0;   // a new agent's rating
  double rd = 350.0;         // a new agent's deviation, and the most growth reaches
  double volatility = 0.06;  // a new agent's volatility σ
  double tau = 0.5;          // τ, how far σ may move in one period ([G2] step 1)
  // Event time in which the deviation grows by σ: φ² += σ²·t/period. Zero: no growth.
  absl::Duration period = absl::Hours(24);
};

// Everything that determines a Glicko2's future, by agent id (snapshots).
struct Glicko2State {
  std::vector<double> mu;
  std::vector<double> phi;  // as of the agent's last result, not grown
  std::vector<double> sigma;
  std::vector<absl::Time> last;  // absl::InfinitePast(): no event time yet
  absl::Time latest = absl::InfinitePast();
};

// Not thread-safe; one owner. Memory: four words per agent. Deterministic: the same results
// with the same times give bit-identical state; reading never consults a clock.
class Glicko2 {
 public:
  // InvalidArgument naming the parameter: every value finite; rd and period >= 0;
  // volatility and tau > 0 (step 5 takes ln σ²).
  static absl::StatusOr<Glicko2> Create(const Glicko2Options& options);

  // Grows to n agents (new ones at initial, rd, volatility, no time); never shrinks.
  void Resize(size_t n);
  // Applies one result at event time `time`; nullopt takes the latest so far. Precondition:
  // every id < size(). O(k²) plus one step-5 iteration per agent.
  void Update(const IndexedResult& result, std::optional<absl::Time> time);

  // Rating points: 173.7178·μ + 1500.
  double Rating(AgentId id) const;
  // The deviation in rating points, grown to latest() (never the wall clock).
  double Deviation(AgentId id) const;
  // Every agent's Rating(), by id.
  std::vector<double> Ratings() const;
  // The published 95% interval: Rating(id) ± kGlicko2IntervalZ · Deviation(id).
  RatingInterval Interval(AgentId id) const;
  double Volatility(AgentId id) const { return state_.sigma[id]; }
  // The event time of the agent's last timed result; nullopt if none.
  std::optional<absl::Time> LastPlayed(AgentId id) const;
  // The largest event time seen; nullopt if none.
  std::optional<absl::Time> latest() const;
  // Glickman's expected score of i against j, both deviations grown to `time` (nullopt:
  // latest()): 1/(1 + exp(−g(√(φ_i² + φ_j²))·(μ_i − μ_j))).
  double Expected(AgentId i, AgentId j, std::optional<absl::Time> time) const;

  size_t size() const { return state_.mu.size(); }
  const Glicko2Options& options() const { return options_; }
  const Glicko2State& state() const { return state_; }
  // Replaces the state (restoring a snapshot). InvalidArgument naming the first bad value:
  // the vectors' sizes differ, a value is not finite, φ or σ negative.
  absl::Status Restore(Glicko2State state);

 private:
  explicit Glicko2(const Glicko2Options& options) : options_(options), tau_(options.tau) {}
  // φ of `id` grown from its last result to `time`, capped at the initial deviation.
  double GrownPhi(AgentId id, absl::Time time) const;

  Glicko2Options options_;
  double period_seconds_ = 0;  // options_.period, for the growth's division
  Glicko2Tau tau_;
  Glicko2State state_;
};

}  // namespace ratings
