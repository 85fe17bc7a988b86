// Online Elo for results of 2..k agents (docs/MODELS.md §2; [VasE] "Elo" appendix; [EU] §2
// for the classic 2-player rule).
#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings {

struct EloOptions {
  // K-factor: rating points a 2-player game moves at most. Default 32 (docs/MODELS.md §2).
  double k = 32.0;
  // Rating of an agent never seen before. Default 1500 (docs/MODELS.md §2).
  double initial = 1500.0;
};

// Not thread-safe; one owner. Memory: one double per agent.
//
// A result of k agents is decomposed into its k(k-1)/2 pairs: strictly above = win (1),
// tied = draw (0.5). Every pair's update is computed from the ratings before the result
// and applied together; each pair moves by K/(k-1) times the weight, so a 2-player game
// of weight 1 is classic Elo: r_i += K (S_ij - E_ij), E_ij = 1 / (1 + 10^((r_j - r_i)/400)).
class Elo {
 public:
  // InvalidArgument unless k is finite and >= 0 and initial is finite.
  static absl::StatusOr<Elo> Create(const EloOptions& options);

  // Grows to n agents (new ones at options.initial); never shrinks.
  void Resize(size_t n);
  // Applies one result. Precondition: every id < size(). O(k^2), touches only its agents.
  void Update(const IndexedResult& result);

  // The expected score of i against j: 1 / (1 + 10^((rating_j - rating_i) / 400)).
  static double Expected(double rating_i, double rating_j);

  double Rating(AgentId id) const { return ratings_[id]; }
  absl::Span<const double> ratings() const { return ratings_; }
  size_t size() const { return ratings_.size(); }
  const EloOptions& options() const { return options_; }

  // Replaces every rating (restoring a snapshot). InvalidArgument naming the first
  // bad value if one is not finite.
  absl::Status Restore(std::vector<double> ratings);

 private:
  explicit Elo(const EloOptions& options) : options_(options) {}

  EloOptions options_;
  std::vector<double> ratings_;
};

}  // namespace ratings
