// `--param key=value` for the batch methods and generators of ratingctl: a table of numeric
// option fields per method, applied and echoed back (every effective parameter is in the
// output, docs/CONTRACTS.md §2).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

// One numeric parameter: its name and the option field it sets (borrowed).
struct NumericParam {
  const char* key;
  std::variant<double*, int64_t*> target;
};

// Applies "key=value" assignments. InvalidArgument "--param KEY (METHOD): 'V' is not a
// number" / "an integer", or "--param: unknown parameter 'KEY' for method METHOD; known: ...".
absl::Status ApplyNumericParams(absl::string_view method, absl::Span<const std::string> assignments,
                                const std::vector<NumericParam>& params);

// Every parameter with its current value.
google::protobuf::Struct NumericParamsStruct(const std::vector<NumericParam>& params);

}  // namespace ratingd
