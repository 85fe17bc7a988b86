// Pairwise outcomes of a profile with ties kept (docs/MODELS.md §5.5): for every pair of
// agents that share a vote, the weight of the votes ranking a above b, b above a, and the
// two level. What the Bradley–Terry intervals and the `ties=half` fit read; the batch tally
// of ratings/voting counts strict pairs only.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "ratings/batch/rating_intervals.h"
#include "ratings/batch/vote_set.h"

namespace ratings {

// Built once from a vote set, then tallied under any multiplicities of its votes (the
// bootstrap's resamples) in O(total pairs of the votes) each, without hashing.
class PairOutcomeTally {
 public:
  explicit PairOutcomeTally(const VoteSet& votes);

  // The pairs, a < b, sorted by (a, b); vote v counted times[v] times its weight. Empty
  // `times`: every vote once. Sums run in vote order.
  std::vector<PairOutcomes> Tally(absl::Span<const uint32_t> times = {}) const;

 private:
  enum class Outcome : uint8_t { kAWins, kBWins, kTie };
  struct Entry {
    uint32_t pair = 0;  // index into pairs_
    Outcome outcome = Outcome::kTie;
  };
  std::vector<PairOutcomes> pairs_;  // the pairs seen, counts zero
  std::vector<size_t> offsets_;      // vote v's entries are [offsets_[v], offsets_[v + 1])
  std::vector<Entry> entries_;
  std::vector<double> weights_;  // per vote
};

}  // namespace ratings
