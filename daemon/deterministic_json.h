// JSON documents of both programs: deterministic printing of any protobuf message (map
// keys sorted, so equal messages print equal), and the values that `rate`, `eval` and
// `generate` build their google.protobuf.Struct documents from.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

// Protobuf's JSON form with proto field names and zero values printed; no newline.
absl::StatusOr<std::string> DeterministicJson(const google::protobuf::Message& message);

// One JSON value each.
google::protobuf::Value NumberValue(double x);
google::protobuf::Value StringValue(std::string s);
google::protobuf::Value BoolValue(bool b);
google::protobuf::Value NullValue();

}  // namespace ratingd
