// Per-agent games and points of a pool: what the UCB suggestions of [AE] §4.1.1 read
// (docs/MODELS.md §1, docs/ACTIVE.md §6). A k-agent result is its k(k-1)/2 pairs, as Elo
// reads it: each of its agents plays k-1 games in it, each worth the result's weight, and
// scores 1 for an agent ranked below it, ½ for one tied with it, 0 for one above it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "ratings/result.h"

namespace ratings {

// Not thread-safe; one owner. Update() is O(k log k); memory O(agents).
class GameCounts {
 public:
  // Grows to n agents with no games; never shrinks.
  void Resize(size_t n);
  // Adds the result's games. Precondition: every id < size().
  void Update(const IndexedResult& result);
  // Replaces the counts (restoring a snapshot), every result count 0. InvalidArgument if
  // the sizes differ, a value is negative or not finite, or an agent has more points than
  // games.
  absl::Status Restore(std::vector<double> games, std::vector<double> points);
  // Replaces the result counts. InvalidArgument if their number is not size().
  absl::Status RestoreResults(std::vector<uint64_t> results);

  // By agent id: weighted games played, and points (win 1, tie ½) in them.
  const std::vector<double>& games() const { return games_; }
  const std::vector<double>& points() const { return points_; }
  // By agent id: the number of results the agent is in, whatever their size or weight.
  const std::vector<uint64_t>& results() const { return results_; }
  size_t size() const { return games_.size(); }

 private:
  // Update counts by pairs up to this many agents, by sorting above.
  static constexpr size_t kPairwiseMax = 16;
  std::vector<double> games_;
  std::vector<double> points_;
  std::vector<uint64_t> results_;
  std::vector<uint32_t> sorted_ranks_;  // scratch for Update()
};

}  // namespace ratings
