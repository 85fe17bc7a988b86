// The one batch pairwise tally of a `ratingctl` run (docs/MODELS.md §1 counts N and M;
// [VasE] Fig. 4): built once from the results and shared by every
// pairwise method. Dense (an n x n matrix) up to a size, a hash of the distinct pairs
// seen above it, so memory stays O(agents + distinct pairs) for sparse data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "Eigen/Core"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "ratings/batch/vote_set.h"
#include "ratings/pair_count.h"
#include "ratings/pairwise_tally.h"
#include "ratings/result.h"

namespace ratings::voting {

struct BatchTallyOptions {
  // Tallies of at most this many agents are a dense matrix (8 n^2 bytes: 128 MiB at the
  // default); larger ones keep only the pairs seen. Default 4096 (the ML cap, docs/MODELS.md §4).
  size_t dense_max_agents = 4096;
};

// Not thread-safe; one owner. Add() is O(k^2) per result of k agents (ties add nothing,
// docs/MODELS.md §1). Deterministic: sums are accumulated in Add() order (FromVotes: by weight
// ascending), and Pairs() is sorted.
class BatchTally {
 public:
  BatchTally(size_t agents, const BatchTallyOptions& options = {});
  // The tally of every vote of `votes`, over votes.num_agents() agents, added by weight
  // ascending: each N(a, b) depends only on the weights it sums, not on the votes' order.
  static BatchTally FromVotes(const VoteSet& votes, const BatchTallyOptions& options = {});

  // Adds the result's weight to N(a, b) for every pair with a strictly above b.
  // Precondition: every id < agents().
  void Add(const IndexedResult& result);

  size_t agents() const { return agents_; }
  bool dense() const { return dense_; }
  // N(a, b): total weight of results placing a strictly above b. O(1) (expected, sparse).
  double N(AgentId a, AgentId b) const;
  double Margin(AgentId a, AgentId b) const { return N(a, b) - N(b, a); }

  // The distinct pairs compared (N(a,b) + N(b,a) > 0), a < b, sorted by (a, b). O(pairs).
  std::vector<PairCount> Pairs() const;
  // The dense N (agents x agents). FailedPrecondition naming the agent count when the
  // tally is sparse (the methods that need it are O(n^2) anyway).
  absl::StatusOr<Eigen::MatrixXd> PreferenceMatrix() const;
  // The dense M = N - N^T; same precondition.
  absl::StatusOr<Eigen::MatrixXd> MarginMatrix() const;

 private:
  void AddPair(AgentId above, AgentId below, double weight);

  size_t agents_ = 0;
  bool dense_ = true;
  size_t dense_max_agents_ = 0;
  PairwiseTally matrix_;  // dense mode
  // Sparse mode: key (a << 32) | b with a < b -> (N(a,b), N(b,a)).
  absl::flat_hash_map<uint64_t, std::pair<double, double>> pairs_;
};

// The distinct pairs of `votes` with their strict counts, sorted by (a, b): the Pairs() of a
// sparse tally of every vote, so memory stays O(agents + distinct pairs) at any agent count
// (docs/CONTRACTS.md §5). What the pair-based batch methods (Bradley–Terry) and `ratingctl
// eval`'s Condorcet checks read.
std::vector<PairCount> TallyPairs(const VoteSet& votes);

}  // namespace ratings::voting
