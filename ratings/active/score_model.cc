#include "ratings/active/score_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ratings::active {

absl::StatusOr<ScoreModel> ScoreModel::Create(std::vector<std::string> names,
                                              std::vector<std::vector<double>> means,
                                              std::vector<std::vector<double>> stds,
                                              std::vector<AgentId> truth) {
  const size_t m = names.size();
  if (m < 2) return absl::InvalidArgumentError(absl::StrCat("need at least 2 agents, got ", m));
  if (means.empty()) return absl::InvalidArgumentError("need at least 1 task, got 0");
  if (stds.size() != means.size()) {
    return absl::InvalidArgumentError(absl::StrCat(means.size(), " rows of means but ", stds.size(),
                                                   " rows of standard deviations"));
  }
  for (size_t v = 0; v < means.size(); ++v) {
    if (means[v].size() != m || stds[v].size() != m) {
      return absl::InvalidArgumentError(absl::StrCat("task ", v, " has ", means[v].size(),
                                                     " means and ", stds[v].size(),
                                                     " standard deviations for ", m, " agents"));
    }
    for (size_t a = 0; a < m; ++a) {
      if (!std::isfinite(means[v][a]) || !std::isfinite(stds[v][a]) || stds[v][a] < 0) {
        return absl::InvalidArgumentError(absl::StrCat("task ", v, ", agent ", names[a], ": mean ",
                                                       means[v][a], ", std ", stds[v][a],
                                                       " (finite, std >= 0)"));
      }
    }
  }
  std::vector<bool> seen(m, false);
  for (AgentId a : truth) {
    if (a >= m || seen[a]) {
      return absl::InvalidArgumentError(
          absl::StrCat("the truth names agent id ", a, a >= m ? " beyond the table" : " twice"));
    }
    seen[a] = true;
  }
  if (truth.empty()) return absl::InvalidArgumentError("the truth ranks no agent");
  ScoreModel model;
  model.names_ = std::move(names);
  model.means_ = std::move(means);
  model.stds_ = std::move(stds);
  model.truth_ = std::move(truth);
  return model;
}

std::vector<std::vector<AgentId>> MeanRankings(const ScoreModel& model) {
  std::vector<std::vector<AgentId>> rankings(model.tasks());
  for (TaskId v = 0; v < model.tasks(); ++v) {
    std::vector<AgentId>& order = rankings[v];
    order.resize(model.agents());
    std::iota(order.begin(), order.end(), AgentId{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](AgentId a, AgentId b) { return model.mean(v, a) > model.mean(v, b); });
  }
  return rankings;
}

}  // namespace ratings::active
