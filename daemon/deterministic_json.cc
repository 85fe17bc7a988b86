#include "daemon/deterministic_json.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver_util.h"

namespace ratingd {

absl::StatusOr<std::string> DeterministicJson(const google::protobuf::Message& message) {
  // Serialise deterministically (sorted map keys), then print from the bytes: the
  // message-based printer walks Struct's hash map in a per-process order.
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!message.SerializeToCodedStream(&coded)) {
      return absl::InternalError("cannot serialise the document");
    }
  }
  static google::protobuf::util::TypeResolver* const resolver =
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          "type.googleapis.com", google::protobuf::DescriptorPool::generated_pool());
  google::protobuf::util::JsonPrintOptions json;
  json.always_print_primitive_fields = true;
  json.preserve_proto_field_names = true;
  std::string out;
  const auto status = google::protobuf::util::BinaryToJsonString(
      resolver, absl::StrCat("type.googleapis.com/", message.GetDescriptor()->full_name()), bytes,
      &out, json);
  if (!status.ok()) {
    return absl::InternalError(absl::StrCat("cannot print the document: ", status.ToString()));
  }
  return out;
}

google::protobuf::Value NumberValue(double x) {
  google::protobuf::Value v;
  v.set_number_value(x);
  return v;
}

google::protobuf::Value StringValue(std::string s) {
  google::protobuf::Value v;
  v.set_string_value(std::move(s));
  return v;
}

google::protobuf::Value BoolValue(bool b) {
  google::protobuf::Value v;
  v.set_bool_value(b);
  return v;
}

google::protobuf::Value NullValue() {
  google::protobuf::Value v;
  v.set_null_value(google::protobuf::NULL_VALUE);
  return v;
}

}  // namespace ratingd
