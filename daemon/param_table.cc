#include "daemon/param_table.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "daemon/deterministic_json.h"

namespace ratingd {
namespace {

// Reads an integer or a number into `field` without touching it on failure.
template <typename T>
bool Parse(absl::string_view value, T& field) {
  T parsed;
  bool ok;
  if constexpr (std::is_floating_point_v<T>) {
    ok = absl::SimpleAtod(value, &parsed);
  } else {
    ok = absl::SimpleAtoi(value, &parsed);
  }
  if (ok) field = parsed;
  return ok;
}

template <typename T>
ParamTable::Getter NumberGetter(const T* field) {
  return [field] { return NumberValue(static_cast<double>(*field)); };
}

// Sets an integer field to a value in [min, max].
template <typename T>
ParamTable::Setter InRange(T* field, T min, T max) {
  return [field, min, max](absl::string_view v) {
    T parsed = 0;
    if (!Parse(v, parsed) || parsed < min || parsed > max) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", v, "' is not an integer in [", min, ", ", max, "]"));
    }
    *field = parsed;
    return absl::OkStatus();
  };
}

}  // namespace

absl::string_view ParamTypeName(ParamType type) {
  switch (type) {
    case ParamType::kInteger:
      return "integer";
    case ParamType::kNumber:
      return "number";
    case ParamType::kString:
      return "string";
    case ParamType::kBoolean:
      return "boolean";
  }
  return "?";
}

std::string CommandLineText(const google::protobuf::Value& value) {
  switch (value.kind_case()) {
    case google::protobuf::Value::kStringValue:
      return value.string_value();
    case google::protobuf::Value::kBoolValue:
      return value.bool_value() ? "true" : "false";
    case google::protobuf::Value::kNumberValue: {
      const double x = value.number_value();
      // Whole numbers as integers ("1000000", not "1e+06"): integer parameters read no
      // exponent.
      if (x == std::trunc(x) && std::fabs(x) < 1e15) {
        return absl::StrCat(static_cast<int64_t>(x));
      }
      char buffer[32];
      for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
        if (std::strtod(buffer, nullptr) == x) break;
      }
      return buffer;
    }
    default:
      return "";
  }
}

ParamTable& ParamTable::Add(absl::string_view key, double* field) {
  return AddTyped(
      key,
      [field](absl::string_view v) {
        return Parse(v, *field)
                   ? absl::OkStatus()
                   : absl::InvalidArgumentError(absl::StrCat("'", v, "' is not a number"));
      },
      NumberGetter(field), ParamType::kNumber);
}

ParamTable& ParamTable::Add(absl::string_view key, int64_t* field) {
  return AddTyped(
      key,
      [field](absl::string_view v) {
        return Parse(v, *field)
                   ? absl::OkStatus()
                   : absl::InvalidArgumentError(absl::StrCat("'", v, "' is not an integer"));
      },
      NumberGetter(field), ParamType::kInteger);
}

ParamTable& ParamTable::Add(absl::string_view key, size_t* field) {
  return AddTyped(
      key,
      [field](absl::string_view v) {
        return Parse(v, *field) ? absl::OkStatus()
                                : absl::InvalidArgumentError(
                                      absl::StrCat("'", v, "' is not a non-negative integer"));
      },
      NumberGetter(field), ParamType::kInteger, 0.0);
}

ParamTable& ParamTable::Add(absl::string_view key, int* field, int min, int max) {
  return AddTyped(key, InRange(field, min, max), NumberGetter(field), ParamType::kInteger, min,
                  max);
}

ParamTable& ParamTable::Add(absl::string_view key, size_t* field, size_t min, size_t max) {
  return AddTyped(key, InRange(field, min, max), NumberGetter(field), ParamType::kInteger,
                  static_cast<double>(min), static_cast<double>(max));
}

ParamTable& ParamTable::Add(absl::string_view key, Setter set, Getter get) {
  return AddTyped(key, std::move(set), std::move(get), ParamType::kString);
}

ParamTable& ParamTable::AddTyped(absl::string_view key, Setter set, Getter get, ParamType type,
                                 std::optional<double> min, std::optional<double> max) {
  ParamSpec spec;
  spec.name = std::string(key);
  spec.type = type;
  spec.min = min;
  spec.max = max;
  params_.push_back({std::move(spec), std::move(set), std::move(get)});
  return *this;
}

ParamTable& ParamTable::Help(absl::string_view help) {
  params_.back().spec.help = std::string(help);
  return *this;
}

ParamTable& ParamTable::Type(ParamType type) {
  params_.back().spec.type = type;
  return *this;
}

ParamTable& ParamTable::Bounds(std::optional<double> min, std::optional<double> max,
                               bool min_exclusive, bool max_exclusive) {
  ParamSpec& spec = params_.back().spec;
  spec.min = min;
  spec.max = max;
  spec.min_exclusive = min.has_value() && min_exclusive;
  spec.max_exclusive = max.has_value() && max_exclusive;
  return *this;
}

absl::Status ParamTable::Apply(absl::string_view assignment) {
  std::pair<absl::string_view, absl::string_view> kv =
      absl::StrSplit(assignment, absl::MaxSplits('=', 1));
  if (assignment.find('=') == absl::string_view::npos || kv.first.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--param '", assignment, "': expected key=value"));
  }
  for (const Param& p : params_) {
    if (p.spec.name != kv.first) continue;
    absl::Status s = p.set(kv.second);
    if (!s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param ", kv.first, " (", method_, "): ", s.message()));
    }
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--param: unknown parameter '", kv.first, "' for method ", method_,
                   params_.empty() ? std::string(" (the method takes no parameters)")
                                   : absl::StrCat("; known: ", absl::StrJoin(Keys(), ", "))));
}

absl::Status ParamTable::Apply(absl::Span<const std::string> assignments) {
  for (const std::string& assignment : assignments) {
    absl::Status s = Apply(assignment);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

std::vector<std::string> ParamTable::Keys() const {
  std::vector<std::string> keys;
  keys.reserve(params_.size());
  for (const Param& p : params_) keys.push_back(p.spec.name);
  return keys;
}

google::protobuf::Struct ParamTable::Values() const {
  google::protobuf::Struct out;
  for (const Param& p : params_) (*out.mutable_fields())[p.spec.name] = p.get();
  return out;
}

std::vector<ParamSpec> ParamTable::Specs() const {
  std::vector<ParamSpec> specs;
  specs.reserve(params_.size());
  for (const Param& p : params_) {
    specs.push_back(p.spec);
    specs.back().default_value = CommandLineText(p.get());
  }
  return specs;
}

std::optional<ScopedParam> SplitScopedParam(absl::string_view item, char separator) {
  const size_t at = item.find(separator);
  if (at == absl::string_view::npos || at > item.find('=')) return std::nullopt;
  return ScopedParam{std::string(item.substr(0, at)), std::string(item.substr(at + 1))};
}

}  // namespace ratingd
