// Held-out evaluation of a ranking ([SCO] §4.4): random
// train/test splits of the results in which every test agent is seen in training, and
// KTD_test = the mean Kendall-tau distance from the trained ranking to the test results.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ratings/batch/vote_set.h"

namespace ratings {

struct TrainTestSplit {
  std::vector<size_t> train;  // indices into the VoteSet, ascending (file order)
  std::vector<size_t> test;   // ascending
};

// Draws min(test_size, votes.size()) results uniformly without replacement as the test
// set, then moves to training every test result holding an agent that no training result
// holds (§4.4: "each alternative in the test set is seen at least once on the training
// set"), so the test set may end up smaller than asked. No result is in both.
TrainTestSplit SplitTrainTest(const VoteSet& votes, size_t test_size, std::mt19937_64& rng);

// (1/|which|) sum over the results `which` of K_d(g, R) (§4.4), with R given by
// `position` (kendall_tau.h Positions). InvalidArgument if `which` is empty or a result
// holds an unranked agent.
absl::StatusOr<double> MeanVoteKendallTau(const VoteSet& votes, absl::Span<const size_t> which,
                                          absl::Span<const uint32_t> position);

}  // namespace ratings
