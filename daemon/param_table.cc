#include "daemon/param_table.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace ratingd {

absl::Status ApplyNumericParams(absl::string_view method, absl::Span<const std::string> assignments,
                                const std::vector<NumericParam>& params) {
  for (const std::string& assignment : assignments) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(assignment, absl::MaxSplits('=', 1));
    if (assignment.find('=') == std::string::npos || kv.first.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param '", assignment, "': expected key=value"));
    }
    auto it = std::find_if(params.begin(), params.end(),
                           [&](const NumericParam& p) { return kv.first == p.key; });
    if (it == params.end()) {
      std::vector<std::string> known;
      for (const NumericParam& p : params) known.emplace_back(p.key);
      return absl::InvalidArgumentError(absl::StrCat("--param: unknown parameter '", kv.first,
                                                     "' for method ", method,
                                                     "; known: ", absl::StrJoin(known, ", ")));
    }
    bool ok;
    if (double* const* d = std::get_if<double*>(&it->target)) {
      ok = absl::SimpleAtod(kv.second, *d);
    } else {
      ok = absl::SimpleAtoi(kv.second, std::get<int64_t*>(it->target));
    }
    if (!ok) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param ", kv.first, " (", method, "): '", kv.second, "' is not ",
                       std::holds_alternative<double*>(it->target) ? "a number" : "an integer"));
    }
  }
  return absl::OkStatus();
}

google::protobuf::Struct NumericParamsStruct(const std::vector<NumericParam>& params) {
  google::protobuf::Struct out;
  for (const NumericParam& p : params) {
    (*out.mutable_fields())[p.key].set_number_value(
        std::visit([](auto* field) { return static_cast<double>(*field); }, p.target));
  }
  return out;
}

}  // namespace ratingd
