#include "daemon/model_params.h"

#include <cstdint>
#include <functional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace ratingd {
namespace {

using Setter = std::function<absl::Status(absl::string_view value, ratings::PoolOptions&)>;

Setter Double(double ratings::EloOptions::*field) {
  return [field](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
    if (!absl::SimpleAtod(value, &(o.elo_options.*field))) {
      return absl::InvalidArgumentError(absl::StrCat("'", value, "' is not a number"));
    }
    return absl::OkStatus();
  };
}

Setter Double(double ratings::ScoOptions::*field) {
  return [field](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
    if (!absl::SimpleAtod(value, &(o.sco_options.*field))) {
      return absl::InvalidArgumentError(absl::StrCat("'", value, "' is not a number"));
    }
    return absl::OkStatus();
  };
}

Setter Integer(int64_t ratings::MaximalLotteryOptions::*field) {
  return [field](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
    if (!absl::SimpleAtoi(value, &(o.ml_options.*field))) {
      return absl::InvalidArgumentError(absl::StrCat("'", value, "' is not an integer"));
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
  static const auto* const params = new std::vector<Param>{
      {"elo", "k", Double(&ratings::EloOptions::k)},
      {"elo", "initial", Double(&ratings::EloOptions::initial)},
      {"sco", "alpha", Double(&ratings::ScoOptions::alpha)},
      {"sco", "tau", Double(&ratings::ScoOptions::tau)},
      {"sco", "min", Double(&ratings::ScoOptions::min)},
      {"sco", "max", Double(&ratings::ScoOptions::max)},
      {"ml", "target",
       [](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
         if (!absl::SimpleAtod(value, &o.ml_options.target_exploitability)) {
           return absl::InvalidArgumentError(absl::StrCat("'", value, "' is not a number"));
         }
         return absl::OkStatus();
       }},
      {"ml", "support_threshold",
       [](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
         if (!absl::SimpleAtod(value, &o.ml_options.support_threshold)) {
           return absl::InvalidArgumentError(absl::StrCat("'", value, "' is not a number"));
         }
         return absl::OkStatus();
       }},
      {"ml", "max_iterations", Integer(&ratings::MaximalLotteryOptions::max_iterations)},
      {"ml", "iterations_per_result",
       Integer(&ratings::MaximalLotteryOptions::iterations_per_result)},
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
      {"ml", "max_agents",
       [](absl::string_view value, ratings::PoolOptions& o) -> absl::Status {
         if (!absl::SimpleAtoi(value, &o.ml_options.max_agents)) {
           return absl::InvalidArgumentError(
               absl::StrCat("'", value, "' is not a non-negative integer"));
         }
         return absl::OkStatus();
       }},
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

}  // namespace ratingd
