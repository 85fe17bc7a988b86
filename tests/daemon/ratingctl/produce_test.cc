// `ratingctl produce --event-time now|file` (daemon/ratingctl/produce.h): which event time
// each produced GameResult carries. Expected values by hand from the inputs.
#include "daemon/ratingctl/produce.h"

#include <optional>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

ratings::io::ResultRecord Record(std::optional<absl::Time> time) {
  ratings::io::ResultRecord record;
  record.pool = "p";
  record.game_id = "g1";
  record.result.standings = {{"a", 1, std::nullopt}, {"b", 2, std::nullopt}};
  record.event_time = time;
  return record;
}

const absl::Time kFileTime = absl::FromUnixSeconds(1'700'000'000) + absl::Nanoseconds(250);
const absl::Time kNow = absl::FromUnixSeconds(1'800'000'000) + absl::Microseconds(7);

TEST(ProduceTest, NowStampsEveryRecordWithTheTimeOfSending) {
  for (const std::optional<absl::Time> t :
       {std::optional(kFileTime), std::optional<absl::Time>()}) {
    const v1::GameResult m = ProducedMessage(Record(t), ProduceConfig::EventTime::kNow, kNow);
    EXPECT_EQ(m.event_time().seconds(), 1'800'000'000);
    EXPECT_EQ(m.event_time().nanos(), 7'000);
    EXPECT_EQ(m.pool(), "p");
    EXPECT_EQ(m.game_id(), "g1");
    EXPECT_EQ(m.standings_size(), 2);
  }
}

TEST(ProduceTest, FileKeepsTheRecordsTimeOrNone) {
  const v1::GameResult timed =
      ProducedMessage(Record(kFileTime), ProduceConfig::EventTime::kFile, kNow);
  EXPECT_EQ(timed.event_time().seconds(), 1'700'000'000);
  EXPECT_EQ(timed.event_time().nanos(), 250);
  const v1::GameResult untimed =
      ProducedMessage(Record(std::nullopt), ProduceConfig::EventTime::kFile, kNow);
  EXPECT_FALSE(untimed.has_event_time());
}

}  // namespace
}  // namespace ratingd
