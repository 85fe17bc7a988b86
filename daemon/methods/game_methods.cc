#include "daemon/methods/game_methods.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"
#include "daemon/methods/game_params.h"
#include "ratings/games/king_of_the_hill.h"
#include "ratings/status_macros.h"

namespace ratingd {
namespace {

namespace games = ratings::games;
using google::protobuf::Struct;
using google::protobuf::Value;

// [RE] F.5 shows ranks whose ratings differ by at most 1e-4 as ties.
constexpr double kDefaultTieTolerance = 1e-4;

absl::StatusOr<std::vector<games::Judgement>> Judgements(
    absl::string_view input, absl::Span<const ratings::io::ResultRecord> records) {
  std::vector<games::Judgement> out;
  out.reserve(records.size());
  for (const ratings::io::ResultRecord& record : records) {
    const std::vector<ratings::Standing>& s = record.result.standings;
    const std::string where = absl::StrCat(input, ":", record.line, ": ");
    if (s.size() != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, "a result of ", s.size(), " agents; the game methods read pairwise battles"));
    }
    if (record.task.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "no prompt: give each battle a question_id or task"));
    }
    double value = s[0].rank < s[1].rank ? 1.0 : s[0].rank > s[1].rank ? -1.0 : 0.0;
    if (s[0].score.has_value()) value = *s[0].score;
    if (!(value >= -1 && value <= 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "score ", value, " is outside [-1, 1]"));
    }
    out.push_back({record.task, s[0].agent, s[1].agent, value});
  }
  return out;
}

// Indices by rating descending; ratings within `tolerance` of their group's first share its
// place and are ordered by name (docs/GAMES.md §5).
std::vector<size_t> Order(const Eigen::VectorXd& rating, const std::vector<std::string>& names,
                          double tolerance) {
  std::vector<size_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double ra = rating[static_cast<Eigen::Index>(a)];
    const double rb = rating[static_cast<Eigen::Index>(b)];
    return ra != rb ? ra > rb : names[a] < names[b];
  });
  for (size_t start = 0; start < order.size();) {
    size_t end = start + 1;
    const double top = rating[static_cast<Eigen::Index>(order[start])];
    while (end < order.size() && top - rating[static_cast<Eigen::Index>(order[end])] <= tolerance) {
      ++end;
    }
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(start),
              order.begin() + static_cast<std::ptrdiff_t>(end),
              [&](size_t a, size_t b) { return names[a] < names[b]; });
    start = end;
  }
  return order;
}

Value Entries(const Eigen::VectorXd& rating, const Eigen::VectorXd& mass,
              const std::vector<std::string>& names, const char* key, double tolerance) {
  Value list;
  for (size_t a : Order(rating, names, tolerance)) {
    Struct entry;
    auto& f = *entry.mutable_fields();
    f[key] = StringValue(names[a]);
    f["rating"] = NumberValue(rating[static_cast<Eigen::Index>(a)]);
    f["mass"] = NumberValue(mass[static_cast<Eigen::Index>(a)]);
    *list.mutable_list_value()->add_values()->mutable_struct_value() = std::move(entry);
  }
  return list;
}

// A model's king rating in [RE]'s king-of-the-hill game, by the NE (`nash`) or CCE solver.
class GameRun : public MethodRun {
 public:
  explicit GameRun(bool nash) : MethodRun(nash ? "gt-ne" : "gt-cce"), nash_(nash) {
    params_ = GameSolverParamTable(nash ? "gt-ne" : "gt-cce", nash, p_);
    params_.Add("tie_tolerance", &tolerance_)
        .Help("king ratings within this much of their group's best tie (then by name)")
        .Bounds(0, std::nullopt);
  }

  absl::Status Check() const override {
    if (!(tolerance_ >= 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param tie_tolerance (", nash_ ? "gt-ne" : "gt-cce", "): must be >= 0"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<v1::RatingReport> RateRecords(const RateConfig& config,
                                               absl::Span<const ratings::io::ResultRecord> records,
                                               int64_t skipped_votes) const override {
    ASSIGN_OR_RETURN(const std::vector<games::Judgement> judgements,
                     Judgements(config.input, records));
    v1::RatingReport report;
    report.set_method(config.method);
    report.set_results(static_cast<uint32_t>(records.size()));
    AddCommonExtra(config, skipped_votes, report);
    if (judgements.empty()) return report;
    ASSIGN_OR_RETURN(const games::Preferences prefs, games::AggregatePreferences(judgements));
    report.set_agents(static_cast<uint32_t>(prefs.models.size()));
    const GameSolution s = SolveGame(games::KingOfTheHill(prefs.tensor), nash_, p_);
    AddSolution(s, prefs, report);
    return report;
  }

 private:
  void AddSolution(const GameSolution& s, const games::Preferences& prefs,
                   v1::RatingReport& report) const {
    const Eigen::VectorXd& king = s.ratings[games::kKingPlayer];
    const Eigen::VectorXd& king_mass = s.mass[games::kKingPlayer];
    uint32_t rank = 0;
    for (size_t m : Order(king, prefs.models, tolerance_)) {
      v1::RankedAgent* entry = report.add_ranking();
      entry->set_rank(++rank);
      entry->set_agent(prefs.models[m]);
      entry->set_rating(king[static_cast<Eigen::Index>(m)]);
      entry->set_mass(king_mass[static_cast<Eigen::Index>(m)]);
    }
    auto& extra = *report.mutable_extra()->mutable_fields();
    extra["prompts"] = Entries(s.ratings[games::kPromptPlayer], s.mass[games::kPromptPlayer],
                               prefs.prompts, "prompt", tolerance_);
    extra["rebel"] = Entries(s.ratings[games::kRebelPlayer], s.mass[games::kRebelPlayer],
                             prefs.models, "agent", tolerance_);
    extra["exploitability"] = NumberValue(s.exploitability);
    extra["converged"] = BoolValue(s.converged);
    extra["steps"] = NumberValue(static_cast<double>(s.steps));
    for (const auto& [name, value] : s.figures) {
      if (name == "tau" || name == "slackness") extra[name] = NumberValue(value);
    }
    if (!nash_) extra["tau"].set_null_value({});  // no temperature
  }

  bool nash_;
  GameSolverParams p_;
  double tolerance_ = kDefaultTieTolerance;
};

}  // namespace

std::unique_ptr<MethodRun> MakeGtNeRun() { return std::make_unique<GameRun>(/*nash=*/true); }
std::unique_ptr<MethodRun> MakeGtCceRun() { return std::make_unique<GameRun>(/*nash=*/false); }

}  // namespace ratingd
