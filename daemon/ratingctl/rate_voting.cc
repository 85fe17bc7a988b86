#include "daemon/ratingctl/rate_voting.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"
#include "daemon/ratingctl/rate_nash.h"
#include "ratings/agent_index.h"
#include "ratings/batch/vote_set.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/ranking.h"
#include "ratings/status_macros.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/copeland.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/nash_averaging.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/schulze.h"
#include "ratings/voting/scoring_rules.h"
#include "ratings/voting/stv.h"

namespace ratingd {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;
namespace voting = ratings::voting;

// Every parameter of every voting method with its default.
struct VotingParams {
  int k = 3;                                 // approval
  int winners = 0;                           // stv; 0 = max(1, floor(m/2))
  voting::KemenyOptions kemeny = {};         // kemeny
  voting::ExactLotteryOptions lottery = {};  // ml-exact, iml
  voting::NashAveragingOptions nash = {};    // nash-avg
};

// A solver tolerance, a number in (0, 1e-3).
ParamTable& AddTolerance(ParamTable& table, double* tolerance) {
  return table.Add(
      "tolerance",
      [tolerance](absl::string_view v) {
        double parsed = 0;
        if (!absl::SimpleAtod(v, &parsed) || !(parsed > 0.0 && parsed < 1e-3)) {
          return absl::InvalidArgumentError(absl::StrCat("'", v, "' is not a number in (0, 1e-3)"));
        }
        *tolerance = parsed;
        return absl::OkStatus();
      },
      [tolerance] { return NumberValue(*tolerance); });
}

// The parameters `method` takes, over `p`.
ParamTable VotingParamTable(absl::string_view method, VotingParams& p) {
  ParamTable table{std::string(method)};
  if (method == "approval") table.Add("k", &p.k, 1, 1 << 30);
  if (method == "stv") table.Add("winners", &p.winners, 0, 1 << 30);
  if (method == "kemeny")
    table.Add("max_agents", &p.kemeny.max_agents, 2, voting::kKemenyHardMaxAgents);
  if (method == "ml-exact" || method == "iml") {
    table.Add("max_agents", &p.lottery.max_agents, 2, size_t{1} << 20);
    AddTolerance(table, &p.lottery.tolerance);
  }
  if (method == "nash-avg") AddTolerance(table, &p.nash.tolerance);
  return table;
}

// Each agent's rank by name (the tie-break).
std::vector<uint32_t> NamePriority(const ratings::AgentIndex& index) {
  std::vector<ratings::AgentId> by_name(index.size());
  for (ratings::AgentId a = 0; a < by_name.size(); ++a) by_name[a] = a;
  std::sort(by_name.begin(), by_name.end(),
            [&](ratings::AgentId a, ratings::AgentId b) { return index.Name(a) < index.Name(b); });
  std::vector<uint32_t> priority(by_name.size());
  for (uint32_t r = 0; r < by_name.size(); ++r) priority[by_name[r]] = r;
  return priority;
}

void AddRanked(const std::vector<ratings::RankedAgent>& ranked, const ratings::AgentIndex& index,
               v1::RatingReport& report) {
  for (const ratings::RankedAgent& r : ranked) {
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(r.rank);
    out->set_agent(index.Name(r.id));
    out->set_rating(r.rating);
  }
}

void AddOrder(const voting::SocialOrder& order, const ratings::AgentIndex& index,
              v1::RatingReport& report) {
  for (size_t i = 0; i < order.order.size(); ++i) {
    v1::RankedAgent* out = report.add_ranking();
    out->set_rank(static_cast<uint32_t>(i + 1));
    out->set_agent(index.Name(order.order[i]));
    out->set_rating(order.score[order.order[i]]);
  }
}

// The effective parameters (defaults resolved), the seed and the skipped votes.
void AddCommonExtra(const ParamTable& params, const RateConfig& config, int64_t skipped_votes,
                    v1::RatingReport& report) {
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["params"].mutable_struct_value() = params.Values();
  extra["seed"] = NumberValue(static_cast<double>(config.seed));
  extra["skipped_votes"] = NumberValue(static_cast<double>(skipped_votes));
}

Struct ByName(const std::vector<double>& values, const ratings::AgentIndex& index) {
  Struct out;
  for (size_t a = 0; a < values.size(); ++a) {
    (*out.mutable_fields())[index.Name(static_cast<ratings::AgentId>(a))] = NumberValue(values[a]);
  }
  return out;
}

// The method's report on the votes (over `index`'s agents), once the parameters are read.
absl::StatusOr<v1::RatingReport> RateElection(const RateConfig& config, VotingParams& params,
                                              const ParamTable& param_table,
                                              const ratings::AgentIndex& index,
                                              const ratings::VoteSet& votes,
                                              int64_t skipped_votes) {
  const std::string& method = config.method;
  if (!std::isfinite(votes.TotalWeight())) {
    // Every weight is finite (ValidateResult), but their sum, hence N, can overflow.
    return absl::InvalidArgumentError(
        "the total weight of the results overflows a double; scale the weights down");
  }
  const std::vector<uint32_t> name_priority = NamePriority(index);
  const voting::Priority priority = name_priority;
  // Dense up to 4096 agents (or ml-exact / iml's own max_agents, if larger).
  const voting::BatchTally tally = voting::BatchTally::FromVotes(
      votes, {.dense_max_agents = std::max<size_t>(4096, params.lottery.max_agents)});

  v1::RatingReport report;
  report.set_method(method);
  report.set_agents(static_cast<uint32_t>(index.size()));
  report.set_results(static_cast<uint32_t>(votes.size()));
  auto& extra = *report.mutable_extra()->mutable_fields();
  int stv_winners = 0;

  if (method == "approval" || method == "plurality" || method == "borda") {
    // Counted and compared exactly, ties by name (docs/MODELS.md §6).
    AddOrder(method == "approval"    ? voting::Approval(votes, params.k, priority)
             : method == "plurality" ? voting::Plurality(votes, priority)
                                     : voting::Borda(votes, priority),
             index, report);
  } else if (method == "copeland") {
    // Wins and half ties: small multiples of 1/2, exact in a double.
    AddRanked(ratings::RankByRating(voting::CopelandScores(tally), index), index, report);
  } else if (method == "stv") {
    ASSIGN_OR_RETURN(const voting::StvOutcome stv,
                     voting::Stv(votes, {.winners = params.winners}, priority));
    stv_winners = stv.winners;
    AddOrder(stv.order, index, report);
    Value& winners = extra["winners"];
    winners.mutable_list_value();
    for (int i = 0; i < stv.winners && i < static_cast<int>(stv.order.order.size()); ++i) {
      winners.mutable_list_value()->add_values()->set_string_value(index.Name(stv.order.order[i]));
    }
    extra["quota"] = NumberValue(stv.quota);
    *extra["votes"].mutable_struct_value() = ByName(stv.votes, index);
  } else if (method == "ml-exact" || method == "iml") {
    ASSIGN_OR_RETURN(const Eigen::MatrixXd margins, tally.MarginMatrix());
    if (method == "ml-exact") {
      ASSIGN_OR_RETURN(const voting::ExactLottery ml,
                       voting::SolveMaximalLottery(margins, params.lottery));
      // Probabilities and ratings within `tolerance` tie (docs/MODELS.md §6).
      AddRanked(ratings::RankByProbabilityThenRating(ml.lottery, ml.rating, index,
                                                     params.lottery.tolerance),
                index, report);
      *extra["lottery"].mutable_struct_value() = ByName(ml.lottery, index);
      extra["exploitability"] = NumberValue(ml.exploitability);
      extra["unique"].set_bool_value(ml.unique);
      extra["linear_programs"] = NumberValue(ml.linear_programs);
    } else {
      ASSIGN_OR_RETURN(const voting::ImlOutcome iml,
                       voting::IterativeMaximalLotteries(margins, params.lottery));
      // Scores (and, in the levels, probabilities) within `tolerance` tie, then by name
      // (docs/MODELS.md §6).
      const double tolerance = params.lottery.tolerance;
      AddRanked(ratings::RankByRating(iml.score, index, tolerance), index, report);
      Value& levels = extra["levels"];
      levels.mutable_list_value();
      std::vector<double> probability(index.size(), 0.0);
      for (const auto& level : iml.levels) {
        std::vector<ratings::AgentId> agents;
        for (const auto& [agent, p] : level) {
          agents.push_back(agent);
          probability[agent] = p;
        }
        ratings::SortByValue(agents, probability, index, tolerance);
        Value* out = levels.mutable_list_value()->add_values();
        out->mutable_list_value();
        for (ratings::AgentId agent : agents) {
          auto& entry =
              *out->mutable_list_value()->add_values()->mutable_struct_value()->mutable_fields();
          entry["agent"].set_string_value(index.Name(agent));
          entry["probability"] = NumberValue(probability[agent]);
        }
      }
      extra["exploitability"] = NumberValue(iml.exploitability);
    }
  } else if (method == "kemeny") {
    ASSIGN_OR_RETURN(const Eigen::MatrixXd n, tally.PreferenceMatrix());
    ASSIGN_OR_RETURN(const voting::KemenyOutcome kemeny,
                     voting::Kemeny(n, params.kemeny, priority));
    AddOrder(kemeny.order, index, report);
    extra["value"] = NumberValue(kemeny.value);
  } else if (method == "schulze") {
    ASSIGN_OR_RETURN(const Eigen::MatrixXd n, tally.PreferenceMatrix());
    AddOrder(voting::Schulze(n, priority).order, index, report);
  } else {  // ranked-pairs
    ASSIGN_OR_RETURN(const Eigen::MatrixXd margins, tally.MarginMatrix());
    AddOrder(voting::RankedPairs(margins, priority), index, report);
  }
  // The effective parameters, defaults resolved.
  if (method == "stv") params.winners = stv_winners;
  AddCommonExtra(param_table, config, skipped_votes, report);
  return report;
}

}  // namespace

std::vector<std::string> VotingMethods() {
  return {"ml-exact", "iml",    "approval",     "plurality", "borda",   "stv",
          "copeland", "kemeny", "ranked-pairs", "schulze",   "nash-avg"};
}

bool IsVotingMethod(absl::string_view method) {
  for (const std::string& m : VotingMethods()) {
    if (m == method) return true;
  }
  return false;
}

absl::StatusOr<v1::RatingReport> RateByVoting(const RateConfig& config,
                                              absl::Span<const ratings::io::ResultRecord> records,
                                              int64_t skipped_votes) {
  const std::string& method = config.method;
  if (!IsVotingMethod(method)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--method: '", method, "' is not a voting method"));
  }
  VotingParams params;
  ParamTable param_table = VotingParamTable(method, params);
  RETURN_IF_ERROR(param_table.Apply(config.params));
  if (method == "nash-avg") {  // scores per task, not votes
    ASSIGN_OR_RETURN(v1::RatingReport report,
                     RateNashAveraging(config.input, records, params.nash));
    AddCommonExtra(param_table, config, skipped_votes, report);
    return report;
  }
  ratings::AgentIndex index;
  ASSIGN_OR_RETURN(const ratings::VoteSet votes,
                   ratings::io::ToVoteSet(records, config.input, index));
  return RateElection(config, params, param_table, index, votes, skipped_votes);
}

absl::StatusOr<v1::RatingReport> RateVotesByVoting(const RateConfig& config,
                                                   const ratings::AgentIndex& index,
                                                   const ratings::VoteSet& votes,
                                                   int64_t skipped_votes) {
  const std::string& method = config.method;
  if (!IsVotingMethod(method) || method == "nash-avg") {
    return absl::InvalidArgumentError(
        absl::StrCat("--method: '", method, "' is not a voting method on votes"));
  }
  VotingParams params;
  ParamTable param_table = VotingParamTable(method, params);
  RETURN_IF_ERROR(param_table.Apply(config.params));
  return RateElection(config, params, param_table, index, votes, skipped_votes);
}

absl::Status CheckVotingParams(const RateConfig& config) {
  if (!IsVotingMethod(config.method)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--method: '", config.method, "' is not a voting method"));
  }
  VotingParams check;
  return VotingParamTable(config.method, check).Apply(config.params);
}

}  // namespace ratingd
