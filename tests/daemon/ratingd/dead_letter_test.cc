// How much of a dead letter's value fits beside its key and headers.
#include "daemon/ratingd/dead_letter.h"

#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {
namespace {

TEST(DeadLetterTest, DeadLetterValueFitsBesideKeyAndHeaders) {
  std::unique_ptr<RdKafka::Headers> headers(RdKafka::Headers::create());
  headers->add("x-ratingd-reason", "unparseable");  // 16 + 11 bytes
  // Hand count: framing 64 + key 4 + the truncation header's 19 + 20 + this header's
  // 8 + 16 + 11 = 142 bytes of overhead.
  EXPECT_EQ(DeadLetterValueBytes(10, "pool", *headers, 1000), 10u);    // fits whole
  EXPECT_EQ(DeadLetterValueBytes(858, "pool", *headers, 1000), 858u);  // exactly
  EXPECT_EQ(DeadLetterValueBytes(859, "pool", *headers, 1000), 858u);  // cut by 1
  EXPECT_EQ(DeadLetterValueBytes(1 << 20, "pool", *headers, 1000), 858u);
  EXPECT_EQ(DeadLetterValueBytes(10, "pool", *headers, 142), 0u);  // no room
  EXPECT_EQ(DeadLetterValueBytes(10, std::string(2000, 'k'), *headers, 1000), 0u);
}

}  // namespace
}  // namespace ratingd
