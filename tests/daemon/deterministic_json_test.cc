// DeterministicJson and the JSON value builders: expected documents written out by hand.
#include "daemon/deterministic_json.h"

#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "ratingd/v1/delta.pb.h"
#include "ratingd/v1/report.pb.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOkAndHolds;

TEST(DeterministicJsonTest, ValuesAreTheirJsonKinds) {
  google::protobuf::Struct doc;
  auto& f = *doc.mutable_fields();
  f["n"] = NumberValue(1.5);
  f["s"] = StringValue("x");
  f["b"] = BoolValue(true);
  f["z"] = NullValue();
  EXPECT_THAT(DeterministicJson(doc), IsOkAndHolds(R"({"b":true,"n":1.5,"s":"x","z":null})"));
}

// Map keys come out sorted whatever the insertion order, so equal documents print equal
// bytes in every process (the Struct's own map iterates in a per-process order).
TEST(DeterministicJsonTest, KeysAreSortedWhateverTheInsertionOrder) {
  google::protobuf::Struct forward, backward;
  for (char c = 'a'; c <= 'z'; ++c) {
    (*forward.mutable_fields())[std::string(1, c)] = NumberValue(c);
  }
  for (char c = 'z'; c >= 'a'; --c) {
    (*backward.mutable_fields())[std::string(1, c)] = NumberValue(c);
  }
  const auto a = DeterministicJson(forward);
  const auto b = DeterministicJson(backward);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(a->substr(0, 16), R"({"a":97,"b":98,")");
}

// Proto field names (snake_case, not lowerCamel) and zero values printed: primitive fields
// and empty repeated fields always, an unset message field not (protobuf's JsonPrintOptions
// always_print_primitive_fields and preserve_proto_field_names).
TEST(DeterministicJsonTest, ProtoFieldNamesAndZeroValues) {
  v1::AgentChange change;
  change.set_agent("a");
  change.set_new_rank(2);
  EXPECT_THAT(
      DeterministicJson(change),
      IsOkAndHolds(R"({"agent":"a","old_rating":0,"new_rating":0,"old_rank":0,"new_rank":2})"));
  v1::RatingReport report;
  report.set_method("elo");
  EXPECT_THAT(DeterministicJson(report),
              IsOkAndHolds(R"({"method":"elo","agents":0,"results":0,"ranking":[]})"));
}

}  // namespace
}  // namespace ratingd
