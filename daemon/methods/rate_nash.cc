#include "daemon/methods/rate_nash.h"

#include <algorithm>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "ratings/agent_index.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

using google::protobuf::Struct;

// The weighted mean score of every (task, agent); tasks and agents in first-seen order.
struct ScoreMatrix {
  ratings::AgentIndex agents;
  std::vector<std::string> tasks;
  Eigen::MatrixXd scores;  // tasks × agents
};

absl::StatusOr<ScoreMatrix> MeanScores(absl::string_view input,
                                       absl::Span<const ratings::io::ResultRecord> records) {
  ScoreMatrix out;
  absl::flat_hash_map<std::string, size_t> task_ids;
  struct Cell {
    double weighted_sum = 0;
    double weight = 0;
  };
  std::vector<std::vector<Cell>> cells;  // [task][agent], grown as they appear
  for (const ratings::io::ResultRecord& record : records) {
    const std::string where = absl::StrCat(input, ":", record.line, ": ");
    if (record.task.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where,
          "nash-avg needs scores per task and this result has no task; give a score table "
          "(--format scores) or JSONL results with a `task` and a `score` per standing"));
    }
    const auto [it, added] = task_ids.try_emplace(record.task, out.tasks.size());
    if (added) {
      out.tasks.push_back(record.task);
      cells.emplace_back();
    }
    std::vector<Cell>& row = cells[it->second];
    for (const ratings::Standing& standing : record.result.standings) {
      if (!standing.score.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, "nash-avg needs scores and agent '", standing.agent,
                         "' has no score in this result (task '", record.task, "')"));
      }
      const ratings::AgentId a = out.agents.Intern(standing.agent);
      if (row.size() <= a) row.resize(a + 1);
      row[a].weighted_sum += record.result.weight * *standing.score;
      row[a].weight += record.result.weight;
    }
  }
  const auto num_agents = static_cast<Eigen::Index>(out.agents.size());
  out.scores.resize(static_cast<Eigen::Index>(out.tasks.size()), num_agents);
  for (size_t v = 0; v < out.tasks.size(); ++v) {
    for (ratings::AgentId a = 0; a < out.agents.size(); ++a) {
      if (cells[v].size() <= a || cells[v][a].weight == 0.0) {
        return absl::InvalidArgumentError(
            absl::StrCat(input, ": nash-avg needs a score of every agent on every task; agent '",
                         out.agents.Name(a), "' has none on task '", out.tasks[v], "'"));
      }
      out.scores(static_cast<Eigen::Index>(v), a) = cells[v][a].weighted_sum / cells[v][a].weight;
    }
  }
  return out;
}

// Each task (row) mapped linearly to [0, 1]: its lowest score 0, its highest 1; a task
// whose scores are all equal gets 0.5 everywhere.
Eigen::MatrixXd NormalisePerTask(const Eigen::MatrixXd& scores) {
  Eigen::MatrixXd out(scores.rows(), scores.cols());
  for (Eigen::Index v = 0; v < scores.rows(); ++v) {
    const double low = scores.row(v).minCoeff(), high = scores.row(v).maxCoeff();
    if (high == low) {
      out.row(v).setConstant(0.5);
    } else {
      out.row(v) = (scores.row(v).array() - low) / (high - low);
    }
  }
  return out;
}

Struct ByName(const std::vector<double>& values, const std::vector<std::string>& names) {
  Struct out;
  for (size_t i = 0; i < values.size(); ++i) {
    (*out.mutable_fields())[names[i]] = NumberValue(values[i]);
  }
  return out;
}

}  // namespace

absl::StatusOr<v1::RatingReport> RateNashAveraging(
    absl::string_view input, absl::Span<const ratings::io::ResultRecord> records,
    const ratings::voting::NashAveragingOptions& options) {
  ASSIGN_OR_RETURN(const ScoreMatrix matrix, MeanScores(input, records));
  v1::RatingReport report;
  report.set_method("nash-avg");
  report.set_agents(static_cast<uint32_t>(matrix.agents.size()));
  report.set_results(static_cast<uint32_t>(records.size()));
  auto& extra = *report.mutable_extra()->mutable_fields();
  extra["tasks"] = NumberValue(static_cast<double>(matrix.tasks.size()));
  ratings::voting::NashAveraging na;
  if (!records.empty()) {
    ASSIGN_OR_RETURN(na,
                     ratings::voting::SolveNashAveraging(NormalisePerTask(matrix.scores), options));
  }
  // Ratings within `tolerance` tie, then by name (docs/MODELS.md §6, "Nash averaging").
  for (const ratings::RankedAgent& r :
       ratings::RankByRating(na.rating, matrix.agents, options.tolerance)) {
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(r.rank);
    out->set_agent(matrix.agents.Name(r.id));
    out->set_rating(r.rating);
  }
  std::vector<std::string> agent_names;
  for (ratings::AgentId a = 0; a < matrix.agents.size(); ++a) {
    agent_names.push_back(matrix.agents.Name(a));
  }
  *extra["agent_strategy"].mutable_struct_value() = ByName(na.agent_strategy, agent_names);
  *extra["task_strategy"].mutable_struct_value() = ByName(na.task_strategy, matrix.tasks);
  extra["value"] = NumberValue(na.value);
  extra["exploitability"] = NumberValue(na.exploitability);
  return report;
}

}  // namespace ratingd
