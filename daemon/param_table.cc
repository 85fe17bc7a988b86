#include "daemon/param_table.h"

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

ParamTable& ParamTable::Add(absl::string_view key, double* field) {
  return Add(
      key,
      [field](absl::string_view v) {
        return Parse(v, *field)
                   ? absl::OkStatus()
                   : absl::InvalidArgumentError(absl::StrCat("'", v, "' is not a number"));
      },
      NumberGetter(field));
}

ParamTable& ParamTable::Add(absl::string_view key, int64_t* field) {
  return Add(
      key,
      [field](absl::string_view v) {
        return Parse(v, *field)
                   ? absl::OkStatus()
                   : absl::InvalidArgumentError(absl::StrCat("'", v, "' is not an integer"));
      },
      NumberGetter(field));
}

ParamTable& ParamTable::Add(absl::string_view key, size_t* field) {
  return Add(
      key,
      [field](absl::string_view v) {
        return Parse(v, *field) ? absl::OkStatus()
                                : absl::InvalidArgumentError(
                                      absl::StrCat("'", v, "' is not a non-negative integer"));
      },
      NumberGetter(field));
}

ParamTable& ParamTable::Add(absl::string_view key, int* field, int min, int max) {
  return Add(key, InRange(field, min, max), NumberGetter(field));
}

ParamTable& ParamTable::Add(absl::string_view key, size_t* field, size_t min, size_t max) {
  return Add(key, InRange(field, min, max), NumberGetter(field));
}

ParamTable& ParamTable::Add(absl::string_view key, Setter set, Getter get) {
  params_.push_back({std::string(key), std::move(set), std::move(get)});
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
    if (p.key != kv.first) continue;
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
  for (const Param& p : params_) keys.push_back(p.key);
  return keys;
}

google::protobuf::Struct ParamTable::Values() const {
  google::protobuf::Struct out;
  for (const Param& p : params_) (*out.mutable_fields())[p.key] = p.get();
  return out;
}

std::optional<ScopedParam> SplitScopedParam(absl::string_view item, char separator) {
  const size_t at = item.find(separator);
  if (at == absl::string_view::npos || at > item.find('=')) return std::nullopt;
  return ScopedParam{std::string(item.substr(0, at)), std::string(item.substr(at + 1))};
}

}  // namespace ratingd
