// How much of a dead letter's value fits beside its key and headers, and the dead letter
// built for a rejected record.
#include "daemon/ratingd/dead_letter.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::Contains;
using ::testing::Pair;

TEST(DeadLetterTest, DeadLetterValueFitsBesideKeyAndHeaders) {
  const RecordHeaders headers = {{"x-ratingd-reason", "unparseable"}};  // 16 + 11 bytes
  // Hand count: framing 64 + key 4 + the truncation header's 19 + 20 + this header's
  // 8 + 16 + 11 = 142 bytes of overhead.
  EXPECT_EQ(DeadLetterValueBytes(10, "pool", headers, 1000), 10u);    // fits whole
  EXPECT_EQ(DeadLetterValueBytes(858, "pool", headers, 1000), 858u);  // exactly
  EXPECT_EQ(DeadLetterValueBytes(859, "pool", headers, 1000), 858u);  // cut by 1
  EXPECT_EQ(DeadLetterValueBytes(1 << 20, "pool", headers, 1000), 858u);
  EXPECT_EQ(DeadLetterValueBytes(10, "pool", headers, 142), 0u);  // no room
  EXPECT_EQ(DeadLetterValueBytes(10, std::string(2000, 'k'), headers, 1000), 0u);
}

TEST(DeadLetterTest, NamesTheReasonAndTheSource) {
  const DeadLetterRecord letter = MakeDeadLetter({"results", 3, 42}, "chess", "garbage",
                                                 "unparseable", "not a GameResult", "1.2", 10000);
  EXPECT_EQ(letter.key, "chess");
  EXPECT_EQ(letter.value, "garbage");
  EXPECT_THAT(letter.headers, Contains(Pair("x-ratingd-reason", "unparseable")));
  EXPECT_THAT(letter.headers, Contains(Pair("x-ratingd-error", "not a GameResult")));
  EXPECT_THAT(letter.headers, Contains(Pair("x-src-topic", "results")));
  EXPECT_THAT(letter.headers, Contains(Pair("x-src-partition", "3")));
  EXPECT_THAT(letter.headers, Contains(Pair("x-src-offset", "42")));
  EXPECT_THAT(letter.headers, Contains(Pair("x-ratingd-version", "1.2")));
  EXPECT_EQ(letter.headers.size(), 6u);  // nothing cut
}

TEST(DeadLetterTest, CutsALongKeyAndValueToTheRecordSize) {
  const std::string key(3000, 'k');
  const std::string value(20000, 'v');
  const DeadLetterRecord letter =
      MakeDeadLetter({"results", 0, 7}, key, value, "key_mismatch", "why", "1", 8192);
  EXPECT_EQ(letter.key, std::string(kDeadLetterMaxKeyBytes, 'k'));
  EXPECT_THAT(letter.headers, Contains(Pair("x-ratingd-key-truncated", "3000")));
  EXPECT_THAT(letter.headers, Contains(Pair("x-ratingd-truncated", "20000")));
  // Hand count of the overhead: framing 64, the cut key 1024, the truncation header's name
  // and digits 19 + 20, then 8 + name + value for each of the 7 headers present before the
  // value is cut (reason, error, topic, partition, offset, version, key-truncated).
  const size_t overhead = 64 + 1024 + 19 + 20 + 7 * 8 + (16 + 12) + (15 + 3) + (11 + 7) + (15 + 1) +
                          (12 + 1) + (17 + 1) + (23 + 4);
  EXPECT_EQ(letter.value.size(), 8192 - overhead);
}

TEST(DeadLetterTest, ARecordWithoutKeyGetsAnEmptyKey) {
  const DeadLetterRecord letter =
      MakeDeadLetter({"results", 0, 0}, std::nullopt, "x", "missing_pool", "why", "1", 4096);
  EXPECT_EQ(letter.key, "");
  EXPECT_EQ(letter.value, "x");
}

}  // namespace
}  // namespace ratingd
