#include "ratings/measures/held_out.h"

#include <algorithm>
#include <numeric>

#include "ratings/measures/kendall_tau.h"
#include "ratings/seeded_draws.h"

namespace ratings {

TrainTestSplit SplitTrainTest(const VoteSet& votes, size_t test_size, std::mt19937_64& rng) {
  const size_t m = votes.size();
  test_size = std::min(test_size, m);
  // Partial Fisher–Yates: the first test_size entries become a uniform sample.
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t i = 0; i < test_size; ++i) {
    std::swap(order[i], order[i + UniformIndex(rng, m - i)]);
  }
  std::vector<bool> in_test(m, false);
  for (size_t i = 0; i < test_size; ++i) in_test[order[i]] = true;
  std::vector<uint32_t> seen_in_training(votes.num_agents(), 0);
  for (size_t r = 0; r < m; ++r) {
    if (in_test[r]) continue;
    for (AgentId a : votes[r].agents) ++seen_in_training[a];
  }
  // A moved result adds agents to training, which can only help later test results.
  for (size_t r = 0; r < m; ++r) {
    if (!in_test[r]) continue;
    const IndexedResult v = votes[r];
    const bool unseen = std::any_of(v.agents.begin(), v.agents.end(),
                                    [&](AgentId a) { return seen_in_training[a] == 0; });
    if (unseen) {
      in_test[r] = false;
      for (AgentId a : v.agents) ++seen_in_training[a];
    }
  }
  TrainTestSplit split;
  for (size_t r = 0; r < m; ++r) (in_test[r] ? split.test : split.train).push_back(r);
  return split;
}

absl::StatusOr<double> MeanVoteKendallTau(const VoteSet& votes, absl::Span<const size_t> which,
                                          absl::Span<const uint32_t> position) {
  if (which.empty()) return absl::InvalidArgumentError("KTD_test: no test results");
  double sum = 0.0;
  for (size_t r : which) {
    absl::StatusOr<int64_t> k = VoteKendallTau(votes[r], position);
    if (!k.ok()) return k.status();
    sum += static_cast<double>(*k);
  }
  return sum / static_cast<double>(which.size());
}

}  // namespace ratings
