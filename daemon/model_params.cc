#include "daemon/model_params.h"

#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "daemon/deterministic_json.h"

namespace ratingd {
namespace {

using Setter = std::function<absl::Status(absl::string_view value, ratings::PoolOptions&)>;

// A setter for one numeric field of one model's options.
template <typename Options, typename T>
Setter Field(Options ratings::PoolOptions::*model, T Options::*field) {
  return [model, field](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
    T& target = o.*model.*field;
    if constexpr (std::is_floating_point_v<T>) {
      if (!absl::SimpleAtod(value, &target)) {
        return absl::InvalidArgumentError(absl::StrCat("'", value, "' is not a number"));
      }
    } else if (!absl::SimpleAtoi(value, &target)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", value, "' is not ", std::is_signed_v<T> ? "an" : "a non-negative", " integer"));
    }
    return absl::OkStatus();
  };
}

struct Param {
  absl::string_view method;
  absl::string_view key;
  Setter set;
};

const std::vector<Param>& Params() {
  using ratings::EloOptions, ratings::ScoOptions, ratings::MaximalLotteryOptions,
      ratings::PoolOptions;
  static const auto* const params = new std::vector<Param>{
      {"elo", "k", Field(&PoolOptions::elo_options, &EloOptions::k)},
      {"elo", "initial", Field(&PoolOptions::elo_options, &EloOptions::initial)},
      {"sco", "alpha", Field(&PoolOptions::sco_options, &ScoOptions::alpha)},
      {"sco", "tau", Field(&PoolOptions::sco_options, &ScoOptions::tau)},
      {"sco", "min", Field(&PoolOptions::sco_options, &ScoOptions::min)},
      {"sco", "max", Field(&PoolOptions::sco_options, &ScoOptions::max)},
      {"ml", "target",
       Field(&PoolOptions::ml_options, &MaximalLotteryOptions::target_exploitability)},
      {"ml", "support_threshold",
       Field(&PoolOptions::ml_options, &MaximalLotteryOptions::support_threshold)},
      {"ml", "max_iterations",
       Field(&PoolOptions::ml_options, &MaximalLotteryOptions::max_iterations)},
      {"ml", "iterations_per_result",
       Field(&PoolOptions::ml_options, &MaximalLotteryOptions::iterations_per_result)},
      {"ml", "variant",
       [](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
         for (auto v : {ratings::RegretVariant::kPredictiveRegretMatchingPlus,
                        ratings::RegretVariant::kRegretMatchingPlus,
                        ratings::RegretVariant::kRegretMatching}) {
           if (value == VariantName(v)) {
             o.ml_options.variant = v;
             return absl::OkStatus();
           }
         }
         return absl::InvalidArgumentError(
             absl::StrCat("'", value, "' is not one of prm+, rm+, rm"));
       }},
      {"ml", "max_agents", Field(&PoolOptions::ml_options, &MaximalLotteryOptions::max_agents)},
  };
  return *params;
}

}  // namespace

std::vector<std::string> ModelParamNames(absl::string_view method) {
  std::vector<std::string> names;
  for (const Param& p : Params()) {
    if (p.method == method) names.emplace_back(p.key);
  }
  return names;
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
  std::pair<absl::string_view, absl::string_view> kv =
      absl::StrSplit(assignment, absl::MaxSplits('=', 1));
  if (assignment.find('=') == absl::string_view::npos || kv.first.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--param '", assignment, "': expected key=value"));
  }
  for (const Param& p : Params()) {
    if (p.method != method || p.key != kv.first) continue;
    absl::Status s = p.set(kv.second, options);
    if (!s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param ", kv.first, " (", method, "): ", s.message()));
    }
    return absl::OkStatus();
  }
  const std::vector<std::string> known = ModelParamNames(method);
  return absl::InvalidArgumentError(
      absl::StrCat("--param: unknown parameter '", kv.first, "' for method ", method,
                   known.empty() ? std::string(" (the method takes no parameters)")
                                 : absl::StrCat("; known: ", absl::StrJoin(known, ", "))));
}

google::protobuf::Struct ModelParamsStruct(absl::string_view method,
                                           const ratings::PoolOptions& o) {
  using google::protobuf::Struct;
  Struct params;
  auto& f = *params.mutable_fields();
  if (method == "elo") {
    f["k"] = NumberValue(o.elo_options.k);
    f["initial"] = NumberValue(o.elo_options.initial);
  } else if (method == "sco") {
    f["alpha"] = NumberValue(o.sco_options.alpha);
    f["tau"] = NumberValue(o.sco_options.tau);
    f["min"] = NumberValue(o.sco_options.min);
    f["max"] = NumberValue(o.sco_options.max);
  } else if (method == "ml") {
    f["target"] = NumberValue(o.ml_options.target_exploitability);
    f["support_threshold"] = NumberValue(o.ml_options.support_threshold);
    f["max_iterations"] = NumberValue(static_cast<double>(o.ml_options.max_iterations));
    f["iterations_per_result"] =
        NumberValue(static_cast<double>(o.ml_options.iterations_per_result));
    f["max_agents"] = NumberValue(static_cast<double>(o.ml_options.max_agents));
    f["variant"].set_string_value(std::string(VariantName(o.ml_options.variant)));
  }
  return params;
}

}  // namespace ratingd
