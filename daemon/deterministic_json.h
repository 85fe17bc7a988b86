// Deterministic JSON of any protobuf message (used by `eval` and `generate`, whose
// documents are google.protobuf.Struct): map keys sorted, so equal messages print equal.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/message.h"

namespace ratingd {

// Protobuf's JSON form with proto field names and zero values printed; no newline.
absl::StatusOr<std::string> DeterministicJson(const google::protobuf::Message& message);

}  // namespace ratingd
