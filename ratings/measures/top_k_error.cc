#include "ratings/measures/top_k_error.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "ratings/measures/kendall_tau.h"

namespace ratings {
namespace {

// Both orders are permutations of one set and 1 <= k <= m.
absl::Status CheckSameAgents(absl::Span<const AgentId> ranking, absl::Span<const AgentId> truth,
                             size_t k) {
  if (ranking.size() != truth.size()) {
    return absl::InvalidArgumentError(absl::StrCat("top-k error: the ranking has ", ranking.size(),
                                                   " agents, the truth ", truth.size()));
  }
  if (k < 1 || k > truth.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("top-k error: k must be in [1, ", truth.size(), "], got ", k));
  }
  std::vector<AgentId> a(ranking.begin(), ranking.end());
  std::vector<AgentId> b(truth.begin(), truth.end());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (std::adjacent_find(a.begin(), a.end()) != a.end() ||
      std::adjacent_find(b.begin(), b.end()) != b.end() || a != b) {
    return absl::InvalidArgumentError(
        "top-k error: the ranking and the truth must order the same distinct agents");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<double> TopKIdentificationError(absl::Span<const AgentId> ranking,
                                               absl::Span<const AgentId> truth, size_t k) {
  if (absl::Status s = CheckSameAgents(ranking, truth, k); !s.ok()) return s;
  std::vector<AgentId> mine(ranking.begin(), ranking.begin() + k);
  std::vector<AgentId> theirs(truth.begin(), truth.begin() + k);
  std::sort(mine.begin(), mine.end());
  std::sort(theirs.begin(), theirs.end());
  std::vector<AgentId> common;
  std::set_intersection(mine.begin(), mine.end(), theirs.begin(), theirs.end(),
                        std::back_inserter(common));
  return 1.0 - static_cast<double>(common.size()) / static_cast<double>(k);
}

absl::StatusOr<double> GeneralizedTopKError(absl::Span<const AgentId> ranking,
                                            absl::Span<const AgentId> truth, size_t k) {
  absl::StatusOr<double> ide = TopKIdentificationError(ranking, truth, k);
  if (!ide.ok()) return ide.status();
  const size_t m = truth.size();
  if (m == 1) return 0.0;
  // ranking_{k*}: the truth's top k agents in the order `ranking` gives them.
  std::vector<bool> in_top(*std::max_element(truth.begin(), truth.end()) + size_t{1}, false);
  for (size_t i = 0; i < k; ++i) in_top[truth[i]] = true;
  std::vector<AgentId> sub;
  for (AgentId a : ranking) {
    if (in_top[a]) sub.push_back(a);
  }
  absl::StatusOr<double> kn = NormalisedKendallTau(sub, truth.subspan(0, k));
  if (!kn.ok()) return kn.status();
  const double alpha = static_cast<double>(m - k) / static_cast<double>(m - 1);
  return alpha * *ide + (1.0 - alpha) * *kn;
}

absl::StatusOr<double> AverageGeneralizedTopKError(
    const std::vector<std::vector<AgentId>>& rankings, absl::Span<const AgentId> truth, size_t k) {
  if (rankings.empty()) return absl::InvalidArgumentError("AGRE: no rankings to average");
  double sum = 0.0;
  for (const std::vector<AgentId>& r : rankings) {
    absl::StatusOr<double> gre = GeneralizedTopKError(r, truth, k);
    if (!gre.ok()) return gre.status();
    sum += *gre;
  }
  return sum / static_cast<double>(rankings.size());
}

}  // namespace ratings
