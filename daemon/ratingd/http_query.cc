#include "daemon/ratingd/http_query.h"

#include "daemon/deterministic_json.h"
#include "google/protobuf/struct.pb.h"

namespace ratingd {

QueryReply JsonErrorReply(int status, const std::string& message) {
  google::protobuf::Struct body;
  (*body.mutable_fields())["error"].set_string_value(message);
  absl::StatusOr<std::string> json = DeterministicJson(body);
  return {status, json.ok() ? *json : R"({"error": "?"})"};
}

QueryReply JsonReply(int status, const google::protobuf::Message& message) {
  absl::StatusOr<std::string> json = DeterministicJson(message);
  if (!json.ok()) return {500, R"({"error": "cannot print the reply"})"};
  return {status, *json};
}

}  // namespace ratingd
