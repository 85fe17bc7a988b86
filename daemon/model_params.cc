#include "daemon/model_params.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "daemon/deterministic_json.h"

namespace ratingd {

namespace {

void AddMlParams(ratings::MaximalLotteryOptions& ml, ParamTable& table) {
  table.Add("target", &ml.target_exploitability)
      .Add("support_threshold", &ml.support_threshold)
      .Add("max_iterations", &ml.max_iterations)
      .Add("iterations_per_result", &ml.iterations_per_result)
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
      .Add("max_agents", &ml.max_agents);
}

// The table of the model `method` names; an empty one, named `method`, for anything else.
ParamTable MethodParamTable(absl::string_view method, ratings::PoolOptions& options) {
  const std::optional<ratings::Model> model = ratings::ParseModel(method);
  return model.has_value() ? ModelParamTable(*model, options) : ParamTable(std::string(method));
}

}  // namespace

ParamTable ModelParamTable(ratings::Model model, ratings::PoolOptions& o) {
  ParamTable table{std::string(ratings::ModelName(model))};
  switch (model) {
    case ratings::Model::kElo:
      table.Add("k", &o.elo_options.k).Add("initial", &o.elo_options.initial);
      break;
    case ratings::Model::kSco:
      table.Add("alpha", &o.sco_options.alpha)
          .Add("tau", &o.sco_options.tau)
          .Add("min", &o.sco_options.min)
          .Add("max", &o.sco_options.max);
      break;
    case ratings::Model::kMl:
      AddMlParams(o.ml_options, table);
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

}  // namespace ratingd
