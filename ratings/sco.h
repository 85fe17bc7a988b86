// Online Soft Condorcet Optimization (docs/MODELS.md §3): one projected stochastic gradient
// step of the sigmoid loss per result, i.e. Algorithm 1 of [SCO]
// with a batch of one (§3.2.1, App. D.4).
#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings {

struct ScoOptions {
  // Learning rate alpha of Algorithm 1. Default 0.1 (docs/MODELS.md §3; [SCO] Table 4).
  double alpha = 0.1;
  // Temperature tau of the logistic in Eq. (5). Default 1.
  double tau = 1.0;
  // Rating bounds [theta_min, theta_max] of §3.1; PROJ clips to them. Default [0, 100].
  double min = 0.0;
  double max = 100.0;
};

// Not thread-safe; one owner. Memory: one double per agent.
//
// Sigmoid loss of a result v (Eq. 6): sum over pairs a strictly above b of
// sigma((theta_b - theta_a)/tau). For each such pair, with s = sigma((theta_b -
// theta_a)/tau) from the pre-step ratings: theta_a += alpha w s(1-s)/tau and theta_b -=
// the same; then every touched rating is clipped to [min, max]. Tied pairs contribute
// nothing. New agents start at the midpoint (min + max) / 2 (Algorithm 1's theta^0).
class Sco {
 public:
  // InvalidArgument unless alpha > 0, tau > 0, min < max, all finite.
  static absl::StatusOr<Sco> Create(const ScoOptions& options);

  void Resize(size_t n);
  // Precondition: every id < size(). O(k^2), touches only its agents.
  void Update(const IndexedResult& result);

  double Rating(AgentId id) const { return ratings_[id]; }
  absl::Span<const double> ratings() const { return ratings_; }
  size_t size() const { return ratings_.size(); }
  const ScoOptions& options() const { return options_; }

  // Replaces every rating (restoring a snapshot). InvalidArgument naming the first
  // bad value if one is not finite or lies outside [min, max].
  absl::Status Restore(std::vector<double> ratings);

 private:
  explicit Sco(const ScoOptions& options) : options_(options) {}

  ScoOptions options_;
  std::vector<double> ratings_;
};

}  // namespace ratings
