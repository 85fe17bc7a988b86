#include "daemon/model_params.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "daemon/deterministic_json.h"
#include "daemon/param_table.h"

namespace ratingd {

namespace {

void AddMlParams(ratings::MaximalLotteryOptions& ml, ParamTable& table) {
  table.Add("target", &ml.target_exploitability)
      .Help("exploitability of the printed lottery")
      .Bounds(0, std::nullopt, /*min_exclusive=*/true)
      .Add("support_threshold", &ml.support_threshold)
      .Help("probability below which leftover mass is pruned from the lottery (0 = off)")
      .Bounds(0, 1, /*min_exclusive=*/false, /*max_exclusive=*/true)
      .Add("max_iterations", &ml.max_iterations)
      .Help("cap on regret-matching iterations of a solve")
      .Bounds(1, std::nullopt)
      .Add("iterations_per_result", &ml.iterations_per_result)
      .Help("iterations run as each result arrives (0 = only at a solve)")
      .Bounds(0, std::nullopt)
      .Add(
          "variant",
          [&ml](absl::string_view value) {
            for (auto v : {ratings::RegretVariant::kPredictiveRegretMatchingPlus,
                           ratings::RegretVariant::kRegretMatchingPlus,
                           ratings::RegretVariant::kRegretMatching}) {
              if (value == VariantName(v)) {
                ml.variant = v;
                return absl::OkStatus();
              }
            }
            return absl::InvalidArgumentError(
                absl::StrCat("'", value, "' is not one of prm+, rm+, rm"));
          },
          [&ml] { return StringValue(std::string(VariantName(ml.variant))); })
      .Help("regret matching: prm+ (predictive, plus), rm+ or rm")
      .Add("max_agents", &ml.max_agents)
      .Help("refuse ml for a pool of more agents (its matrix grows as their square)")
      .Bounds(2, std::nullopt);
}

// The table of the model `method` names; an empty one, named `method`, for anything else.
ParamTable MethodParamTable(absl::string_view method, ratings::PoolOptions& options) {
  const std::optional<ratings::Model> model = ratings::ParseModel(method);
  return model.has_value() ? ModelParamTable(*model, options) : ParamTable(std::string(method));
}

}  // namespace

void AddGlicko2Params(ratings::Glicko2Options& g, ParamTable& table) {
  table.Add("initial", &g.initial)
      .Help("a new agent's rating")
      .Add("rd", &g.rd)
      .Bounds(0, std::nullopt)
      .Help("a new agent's rating deviation, and the most that inactivity grows it to")
      .Add("volatility", &g.volatility)
      .Bounds(0, std::nullopt, /*min_exclusive=*/true)
      .Help("a new agent's volatility sigma")
      .Add("tau", &g.tau)
      .Bounds(0, std::nullopt, /*min_exclusive=*/true)
      .Help("how far the volatility may move in one result")
      .Add(
          "period",
          [&g](absl::string_view value) {
            if (!absl::ParseDuration(value, &g.period)) {
              return absl::InvalidArgumentError(
                  absl::StrCat("'", value, "' is not a duration (e.g. 24h, 90m, 0)"));
            }
            return absl::OkStatus();
          },
          [&g] { return StringValue(absl::FormatDuration(g.period)); })
      .Help(
          "event time in which the squared deviation grows by the squared volatility; 0: "
          "no growth");
}

ParamTable ModelParamTable(ratings::Model model, ratings::PoolOptions& o) {
  ParamTable table{std::string(ratings::ModelName(model))};
  switch (model) {
    case ratings::Model::kElo:
      table.Add("k", &o.elo_options.k)
          .Help("K-factor: the largest change of a rating per game")
          .Bounds(0, std::nullopt)
          .Add("initial", &o.elo_options.initial)
          .Help("a new agent's rating");
      break;
    case ratings::Model::kSco:
      table.Add("alpha", &o.sco_options.alpha)
          .Help("step size of each result's gradient step")
          .Bounds(0, std::nullopt, /*min_exclusive=*/true)
          .Add("tau", &o.sco_options.tau)
          .Help("temperature of the sigmoid loss")
          .Bounds(0, std::nullopt, /*min_exclusive=*/true)
          .Add("min", &o.sco_options.min)
          .Help("lower bound of the ratings")
          .Add("max", &o.sco_options.max)
          .Help("upper bound of the ratings");
      break;
    case ratings::Model::kMl:
      AddMlParams(o.ml_options, table);
      break;
    case ratings::Model::kGlicko2:
      AddGlicko2Params(o.glicko2_options, table);
      break;
  }
  return table;
}

std::vector<std::string> ModelParamNames(absl::string_view method) {
  ratings::PoolOptions scratch;
  return MethodParamTable(method, scratch).Keys();
}

absl::string_view VariantName(ratings::RegretVariant variant) {
  switch (variant) {
    case ratings::RegretVariant::kRegretMatching:
      return "rm";
    case ratings::RegretVariant::kRegretMatchingPlus:
      return "rm+";
    case ratings::RegretVariant::kPredictiveRegretMatchingPlus:
      return "prm+";
  }
  return "?";
}

absl::Status ApplyModelParam(absl::string_view method, absl::string_view assignment,
                             ratings::PoolOptions& options) {
  return MethodParamTable(method, options).Apply(assignment);
}

google::protobuf::Struct ModelParamsStruct(absl::string_view method,
                                           const ratings::PoolOptions& options) {
  ratings::PoolOptions copy = options;
  return MethodParamTable(method, copy).Values();
}

absl::Status ApplyScopedModelParams(const std::vector<std::string>& params,
                                    ratings::PoolOptions& options) {
  for (const std::string& p : params) {
    const std::optional<ScopedParam> scoped = SplitScopedParam(p, '.');
    if (!scoped.has_value() || scoped->assignment.find('=') == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param '", p, "': expected MODEL.KEY=VALUE, e.g. elo.k=24"));
    }
    absl::Status s = ApplyModelParam(scoped->scope, scoped->assignment, options);
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("--param: ", s.message()));
  }
  return absl::OkStatus();
}

absl::Status ApplyModelList(const std::string& list, ratings::PoolOptions& options) {
  options.elo = options.sco = options.ml = options.glicko2 = false;
  for (absl::string_view m : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    const std::optional<ratings::Model> model = ratings::ParseModel(m);
    if (!model.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--models: unknown model '", m, "'; known: elo, sco, ml, glicko2"));
    }
    switch (*model) {
      case ratings::Model::kElo:
        options.elo = true;
        break;
      case ratings::Model::kSco:
        options.sco = true;
        break;
      case ratings::Model::kMl:
        options.ml = true;
        break;
      case ratings::Model::kGlicko2:
        options.glicko2 = true;
        break;
    }
  }
  if (!options.elo && !options.sco && !options.ml && !options.glicko2) {
    return absl::InvalidArgumentError("--models: name at least one");
  }
  return absl::OkStatus();
}

}  // namespace ratingd
