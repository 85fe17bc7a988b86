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
//
// Each parameter also carries a ParamSpec (type, bounds, help) for `ratingctl methods` and
// the help texts: the typed Add overloads fill in the type and bounds they check; Help(),
// Bounds() and Type() amend the parameter added last.
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

// What `ratingctl methods` prints of a parameter (docs/CONTRACTS.md §2.5).
enum class ParamType { kInteger, kNumber, kString, kBoolean };
absl::string_view ParamTypeName(ParamType type);  // "integer", "number", "string", "boolean"

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kNumber;
  std::string default_value;  // as written on the command line
  // Bounds, inclusive unless marked exclusive; nullopt when there is none.
  std::optional<double> min;
  std::optional<double> max;
  bool min_exclusive = false;
  bool max_exclusive = false;
  std::string help;
};

// A Value as it would be written after `--param key=`: a number in the fewest digits that
// read back to it ("0.001", "1e-06", "32"), a string as is, a bool as true or false.
std::string CommandLineText(const google::protobuf::Value& value);

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
  // Anything else (an enumeration, an open interval): type string and no bounds unless
  // Type() and Bounds() say otherwise.
  ParamTable& Add(absl::string_view key, Setter set, Getter get);

  // Amend the parameter added last (which must exist).
  ParamTable& Help(absl::string_view help);
  ParamTable& Type(ParamType type);
  ParamTable& Bounds(std::optional<double> min, std::optional<double> max,
                     bool min_exclusive = false, bool max_exclusive = false);

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
  // Every parameter's spec, in the order they were added, default_value its current value.
  std::vector<ParamSpec> Specs() const;

 private:
  struct Param {
    ParamSpec spec;  // default_value is filled in by Specs()
    Setter set;
    Getter get;
  };
  ParamTable& AddTyped(absl::string_view key, Setter set, Getter get, ParamType type,
                       std::optional<double> min = std::nullopt,
                       std::optional<double> max = std::nullopt);
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
