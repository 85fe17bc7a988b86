#include "daemon/methods/voting_methods.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/rate_nash.h"
#include "daemon/methods/vote_run.h"
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
ParamTable& AddTolerance(ParamTable& table, double* tolerance, absl::string_view help) {
  return table
      .Add(
          "tolerance",
          [tolerance](absl::string_view v) {
            double parsed = 0;
            if (!absl::SimpleAtod(v, &parsed) || !(parsed > 0.0 && parsed < 1e-3)) {
              return absl::InvalidArgumentError(
                  absl::StrCat("'", v, "' is not a number in (0, 1e-3)"));
            }
            *tolerance = parsed;
            return absl::OkStatus();
          },
          [tolerance] { return NumberValue(*tolerance); })
      .Type(ParamType::kNumber)
      .Bounds(0, 1e-3, /*min_exclusive=*/true, /*max_exclusive=*/true)
      .Help(help);
}

void NoParams(ParamTable&, VotingParams&) {}

void ApprovalParams(ParamTable& table, VotingParams& p) {
  table.Add("k", &p.k, 1, 1 << 30).Help("each result approves of its top k agents");
}

void StvParams(ParamTable& table, VotingParams& p) {
  table.Add("winners", &p.winners, 0, 1 << 30)
      .Help("seats to fill (0 = max(1, floor(agents / 2)))");
}

void KemenyParams(ParamTable& table, VotingParams& p) {
  table.Add("max_agents", &p.kemeny.max_agents, 2, voting::kKemenyHardMaxAgents)
      .Help("refuse a majority cycle of more agents (the search is exponential in it)");
}

void LotteryParams(ParamTable& table, VotingParams& p) {
  table.Add("max_agents", &p.lottery.max_agents, 2, size_t{1} << 20)
      .Help("refuse more agents (the linear programs grow as their square)");
  AddTolerance(table, &p.lottery.tolerance,
               "probabilities and ratings within this much tie (then by name)");
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

Struct ByName(const std::vector<double>& values, const ratings::AgentIndex& index) {
  Struct out;
  for (size_t a = 0; a < values.size(); ++a) {
    (*out.mutable_fields())[index.Name(static_cast<ratings::AgentId>(a))] = NumberValue(values[a]);
  }
  return out;
}

// What a voting method reads: its parameters, the votes over `index`'s agents, their
// tally and the tie-break by name.
struct Election {
  const VotingParams& params;
  const ratings::AgentIndex& index;
  const ratings::VoteSet& votes;
  const voting::BatchTally& tally;
  voting::Priority priority;
};

// Counted and compared exactly, ties by name (docs/MODELS.md §6).
absl::Status ElectApproval(const Election& e, v1::RatingReport& report) {
  AddOrder(voting::Approval(e.votes, e.params.k, e.priority), e.index, report);
  return absl::OkStatus();
}

absl::Status ElectPlurality(const Election& e, v1::RatingReport& report) {
  AddOrder(voting::Plurality(e.votes, e.priority), e.index, report);
  return absl::OkStatus();
}

absl::Status ElectBorda(const Election& e, v1::RatingReport& report) {
  AddOrder(voting::Borda(e.votes, e.priority), e.index, report);
  return absl::OkStatus();
}

// Wins and half ties: small multiples of 1/2, exact in a double.
absl::Status ElectCopeland(const Election& e, v1::RatingReport& report) {
  AddRanked(ratings::RankByRating(voting::CopelandScores(e.tally), e.index), e.index, report);
  return absl::OkStatus();
}

absl::Status ElectStv(const Election& e, v1::RatingReport& report) {
  ASSIGN_OR_RETURN(const voting::StvOutcome stv,
                   voting::Stv(e.votes, {.winners = e.params.winners}, e.priority));
  AddOrder(stv.order, e.index, report);
  auto& extra = *report.mutable_extra()->mutable_fields();
  Value& winners = extra["winners"];
  winners.mutable_list_value();
  for (int i = 0; i < stv.winners && i < static_cast<int>(stv.order.order.size()); ++i) {
    winners.mutable_list_value()->add_values()->set_string_value(e.index.Name(stv.order.order[i]));
  }
  extra["quota"] = NumberValue(stv.quota);
  *extra["votes"].mutable_struct_value() = ByName(stv.votes, e.index);
  // The effective parameter, the default resolved.
  (*extra["params"].mutable_struct_value()->mutable_fields())["winners"] = NumberValue(stv.winners);
  return absl::OkStatus();
}

absl::Status ElectMlExact(const Election& e, v1::RatingReport& report) {
  ASSIGN_OR_RETURN(const Eigen::MatrixXd margins, e.tally.MarginMatrix());
  ASSIGN_OR_RETURN(const voting::ExactLottery ml,
                   voting::SolveMaximalLottery(margins, e.params.lottery));
  // Probabilities and ratings within `tolerance` tie (docs/MODELS.md §6).
  AddRanked(ratings::RankByProbabilityThenRating(ml.lottery, ml.rating, e.index,
                                                 e.params.lottery.tolerance),
            e.index, report);
  auto& extra = *report.mutable_extra()->mutable_fields();
  *extra["lottery"].mutable_struct_value() = ByName(ml.lottery, e.index);
  extra["exploitability"] = NumberValue(ml.exploitability);
  extra["unique"].set_bool_value(ml.unique);
  extra["linear_programs"] = NumberValue(ml.linear_programs);
  return absl::OkStatus();
}

// extra.levels: each level's agents with their probability, probabilities within
// `tolerance` tying and then going by name.
Value ImlLevels(const voting::ImlOutcome& iml, const ratings::AgentIndex& index, double tolerance) {
  Value levels;
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
  return levels;
}

absl::Status ElectIml(const Election& e, v1::RatingReport& report) {
  ASSIGN_OR_RETURN(const Eigen::MatrixXd margins, e.tally.MarginMatrix());
  ASSIGN_OR_RETURN(const voting::ImlOutcome iml,
                   voting::IterativeMaximalLotteries(margins, e.params.lottery));
  // Scores (and, in the levels, probabilities) within `tolerance` tie, then by name
  // (docs/MODELS.md §6).
  const double tolerance = e.params.lottery.tolerance;
  AddRanked(ratings::RankByRating(iml.score, e.index, tolerance), e.index, report);
  auto& extra = *report.mutable_extra()->mutable_fields();
  extra["levels"] = ImlLevels(iml, e.index, tolerance);
  extra["exploitability"] = NumberValue(iml.exploitability);
  return absl::OkStatus();
}

absl::Status ElectKemeny(const Election& e, v1::RatingReport& report) {
  ASSIGN_OR_RETURN(const Eigen::MatrixXd n, e.tally.PreferenceMatrix());
  ASSIGN_OR_RETURN(const voting::KemenyOutcome kemeny,
                   voting::Kemeny(n, e.params.kemeny, e.priority));
  AddOrder(kemeny.order, e.index, report);
  (*report.mutable_extra()->mutable_fields())["value"] = NumberValue(kemeny.value);
  return absl::OkStatus();
}

absl::Status ElectSchulze(const Election& e, v1::RatingReport& report) {
  ASSIGN_OR_RETURN(const Eigen::MatrixXd n, e.tally.PreferenceMatrix());
  AddOrder(voting::Schulze(n, e.priority).order, e.index, report);
  return absl::OkStatus();
}

absl::Status ElectRankedPairs(const Election& e, v1::RatingReport& report) {
  ASSIGN_OR_RETURN(const Eigen::MatrixXd margins, e.tally.MarginMatrix());
  AddOrder(voting::RankedPairs(margins, e.priority), e.index, report);
  return absl::OkStatus();
}

using AddParams = void (*)(ParamTable&, VotingParams&);
using Elect = absl::Status (*)(const Election&, v1::RatingReport&);

// A voting rule on votes: one tally of them, shared by the rule's steps.
class VotingRun : public VoteRun {
 public:
  VotingRun(std::string name, AddParams add_params, Elect elect)
      : VoteRun(std::move(name)), elect_(elect) {
    add_params(params_, p_);
  }

  absl::StatusOr<v1::RatingReport> RateVotes(const RateConfig& config,
                                             const ratings::AgentIndex& index,
                                             const ratings::VoteSet& votes,
                                             int64_t skipped_votes) const override {
    const std::vector<uint32_t> name_priority = NamePriority(index);
    // Dense up to 4096 agents (or ml-exact / iml's own max_agents, if larger).
    const voting::BatchTally tally = voting::BatchTally::FromVotes(
        votes, {.dense_max_agents = std::max<size_t>(4096, p_.lottery.max_agents)});
    v1::RatingReport report;
    report.set_method(config.method);
    report.set_agents(static_cast<uint32_t>(index.size()));
    report.set_results(static_cast<uint32_t>(votes.size()));
    AddCommonExtra(config, skipped_votes, report);
    RETURN_IF_ERROR(elect_({p_, index, votes, tally, name_priority}, report));
    return report;
  }

 private:
  VotingParams p_;
  Elect elect_;
};

// Nash averaging rates the records' scores per task, not votes.
class NashAvgRun : public MethodRun {
 public:
  NashAvgRun() : MethodRun("nash-avg") {
    AddTolerance(params_, &nash_.tolerance,
                 "the solver's tolerance; ratings within it tie (then by name)");
  }

  absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                               absl::Span<const ratings::io::ResultRecord> records,
                                               int64_t skipped_votes) const override {
    ASSIGN_OR_RETURN(v1::RatingReport report, RateNashAveraging(config.input, records, nash_));
    AddCommonExtra(config, skipped_votes, report);
    return report;
  }

 private:
  voting::NashAveragingOptions nash_;
};

}  // namespace

std::unique_ptr<MethodRun> MakeApprovalRun() {
  return std::make_unique<VotingRun>("approval", ApprovalParams, ElectApproval);
}
std::unique_ptr<MethodRun> MakePluralityRun() {
  return std::make_unique<VotingRun>("plurality", NoParams, ElectPlurality);
}
std::unique_ptr<MethodRun> MakeBordaRun() {
  return std::make_unique<VotingRun>("borda", NoParams, ElectBorda);
}
std::unique_ptr<MethodRun> MakeStvRun() {
  return std::make_unique<VotingRun>("stv", StvParams, ElectStv);
}
std::unique_ptr<MethodRun> MakeCopelandRun() {
  return std::make_unique<VotingRun>("copeland", NoParams, ElectCopeland);
}
std::unique_ptr<MethodRun> MakeKemenyRun() {
  return std::make_unique<VotingRun>("kemeny", KemenyParams, ElectKemeny);
}
std::unique_ptr<MethodRun> MakeRankedPairsRun() {
  return std::make_unique<VotingRun>("ranked-pairs", NoParams, ElectRankedPairs);
}
std::unique_ptr<MethodRun> MakeSchulzeRun() {
  return std::make_unique<VotingRun>("schulze", NoParams, ElectSchulze);
}
std::unique_ptr<MethodRun> MakeMlExactRun() {
  return std::make_unique<VotingRun>("ml-exact", LotteryParams, ElectMlExact);
}
std::unique_ptr<MethodRun> MakeImlRun() {
  return std::make_unique<VotingRun>("iml", LotteryParams, ElectIml);
}
std::unique_ptr<MethodRun> MakeNashAvgRun() { return std::make_unique<NashAvgRun>(); }

}  // namespace ratingd
