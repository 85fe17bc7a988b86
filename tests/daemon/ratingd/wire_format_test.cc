// The hand-written wire format of packed sint64 fields, against bytes worked out by hand
// from the protobuf encoding rules (ZigZag: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ...; base-128
// varints, low group first, high bit set on all bytes but the last).
#include "daemon/ratingd/wire_format.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd::wire {
namespace {

TEST(WireFormatTest, Sint64sByHand) {
  std::string payload;
  AppendSint64s(std::vector<int64_t>{0, -1, 1, -2, 64, -65}, payload);
  // 64 -> 128 = 0x80 0x01; -65 -> 129 = 0x81 0x01.
  EXPECT_EQ(payload, std::string("\x00\x01\x02\x03\x80\x01\x81\x01", 8));
  EXPECT_EQ(CountVarints(payload), 6);
  Sint64Reader reader(payload);
  std::vector<int64_t> back;
  for (int i = 0; i < 6; ++i) back.push_back(reader.Next());
  EXPECT_THAT(back, ::testing::ElementsAre(0, -1, 1, -2, 64, -65));
}

TEST(WireFormatTest, ExtremesRoundTrip) {
  const std::vector<int64_t> values = {std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max(), 1LL << 62,
                                       -(1LL << 62)};
  std::string payload;
  AppendSint64s(values, payload);
  // ZigZag: min -> 2^64 - 1, max -> 2^64 - 2, 2^62 -> 2^63 (64 bits: 10 bytes each), but
  // -2^62 -> 2^63 - 1 (63 bits: 9 bytes).
  EXPECT_EQ(payload.size(), 39u);
  ASSERT_EQ(CountVarints(payload), 4);
  Sint64Reader reader(payload);
  for (const int64_t v : values) EXPECT_EQ(reader.Next(), v);
}

TEST(WireFormatTest, CountVarintsRefusesWhatIsNotASequenceOfVarints) {
  EXPECT_EQ(CountVarints(""), 0);
  EXPECT_EQ(CountVarints(std::string("\x01\x80", 2)), -1);        // ends inside a varint
  EXPECT_EQ(CountVarints(std::string(10, '\x80') + '\x01'), -1);  // 11 bytes
  EXPECT_EQ(CountVarints(std::string(9, '\x80') + '\x01'), 1);    // 10 bytes: the most
}

}  // namespace
}  // namespace ratingd::wire
