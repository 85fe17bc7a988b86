// `--param key=value`, the one parser of both programs. A ParamTable names a method's
// parameters, each bound to the field of an options struct it sets; it applies assignments
// with errors that name the key, the method and what is wrong with the value, and echoes
// every effective value (docs/CONTRACTS.md §2: reports carry their effective parameters).
//
//   ratings::ScoBatchOptions o;
//   ParamTable table("sco-batch");
//   table.Add("batch", &o.batch).Add("alpha", &o.alpha);
//   RETURN_IF_ERROR(table.Apply(config.params));   // {"alpha=0.5"} sets o.alpha
//   google::protobuf::Struct echo = table.Values();  // {"alpha": 0.5, "batch": 32}
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

// Not thread-safe; borrows the fields it sets, which must outlive it.
class ParamTable {
 public:
  // Parses `value` into its field; InvalidArgument saying what is wrong with the value
  // (e.g. "'x' is not a number"), which Apply prefixes with the key and method.
  using Setter = std::function<absl::Status(absl::string_view value)>;
  // The field's effective value, for Values().
  using Getter = std::function<google::protobuf::Value()>;

  // `method` names the table in errors ("--param k (elo): ...").
  explicit ParamTable(std::string method) : method_(std::move(method)) {}

  // A number ("'v' is not a number"), an integer ("'v' is not an integer"), a non-negative
  // integer ("'v' is not a non-negative integer").
  ParamTable& Add(absl::string_view key, double* field);
  ParamTable& Add(absl::string_view key, int64_t* field);
  ParamTable& Add(absl::string_view key, size_t* field);
  // An integer in [min, max] ("'v' is not an integer in [min, max]").
  ParamTable& Add(absl::string_view key, int* field, int min, int max);
  ParamTable& Add(absl::string_view key, size_t* field, size_t min, size_t max);
  // Anything else (an enumeration, an open interval).
  ParamTable& Add(absl::string_view key, Setter set, Getter get);

  // Applies one "key=value". InvalidArgument: "--param 'A': expected key=value",
  // "--param: unknown parameter 'K' for method M; known: a, b" (or "(the method takes no
  // parameters)"), or "--param K (M): <what is wrong with the value>".
  absl::Status Apply(absl::string_view assignment);
  // Applies each in order; stops at the first error.
  absl::Status Apply(absl::Span<const std::string> assignments);

  // The keys, in the order they were added.
  std::vector<std::string> Keys() const;
  // Every parameter with its current value.
  google::protobuf::Struct Values() const;

 private:
  struct Param {
    std::string key;
    Setter set;
    Getter get;
  };
  std::string method_;
  std::vector<Param> params_;
};

// An assignment scoped to one model or method, e.g. ratingd's "elo.k=16" (separator '.')
// or eval's "sco-batch:alpha=0.5" (':'): the scope and the "key=value" after it. nullopt
// when the separator does not come before the first '=' (an unscoped assignment).
struct ScopedParam {
  std::string scope;
  std::string assignment;
};
std::optional<ScopedParam> SplitScopedParam(absl::string_view item, char separator);

}  // namespace ratingd
