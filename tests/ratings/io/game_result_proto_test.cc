#include "ratings/io/game_result_proto.h"

#include <cmath>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings::io {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

ratingd::v1::GameResult TwoPlayerGame() {
  ratingd::v1::GameResult message;
  message.set_pool("chess");
  message.set_game_id("g1");
  ratingd::v1::Standing* a = message.add_standings();
  a->set_agent("alice");
  a->set_rank(1);
  ratingd::v1::Standing* b = message.add_standings();
  b->set_agent("bob");
  b->set_rank(2);
  return message;
}

TEST(GameResultProtoTest, FromProtoMapsEveryField) {
  ratingd::v1::GameResult message = TwoPlayerGame();
  message.set_task("openings");
  message.set_weight(2.5);
  message.mutable_standings(0)->set_score(10.5);
  message.mutable_event_time()->set_seconds(1'700'000'000);
  message.mutable_event_time()->set_nanos(5);

  absl::StatusOr<ResultRecord> record = FromProto(message, ResultLimits());
  ASSERT_THAT(record, IsOk());
  EXPECT_EQ(record->event_time, absl::FromUnixNanos(1'700'000'000'000'000'005));
  EXPECT_EQ(record->pool, "chess");
  EXPECT_EQ(record->game_id, "g1");
  EXPECT_EQ(record->task, "openings");
  EXPECT_EQ(record->line, 0);
  EXPECT_EQ(record->result.weight, 2.5);
  ASSERT_EQ(record->result.standings.size(), 2u);
  EXPECT_EQ(record->result.standings[0].agent, "alice");
  EXPECT_EQ(record->result.standings[0].rank, 1u);
  EXPECT_EQ(record->result.standings[0].score, 10.5);
  EXPECT_EQ(record->result.standings[1].agent, "bob");
  EXPECT_EQ(record->result.standings[1].rank, 2u);
  EXPECT_FALSE(record->result.standings[1].score.has_value());
}

TEST(GameResultProtoTest, UnsetWeightMeansOne) {
  absl::StatusOr<ResultRecord> record = FromProto(TwoPlayerGame(), ResultLimits());
  ASSERT_THAT(record, IsOk());
  EXPECT_EQ(record->result.weight, 1.0);
  EXPECT_FALSE(record->event_time.has_value());
}

TEST(GameResultProtoTest, RoundTripIsExact) {
  ratingd::v1::GameResult message = TwoPlayerGame();
  message.set_task("t");
  message.set_weight(1.0);
  message.mutable_standings(1)->set_score(-3.25);
  message.mutable_standings(1)->set_rank(1);                   // a tie
  message.mutable_event_time()->set_seconds(-62'135'596'800);  // 0001-01-01T00:00:00Z
  message.mutable_event_time()->set_nanos(999'999'999);

  absl::StatusOr<ResultRecord> record = FromProto(message, ResultLimits());
  ASSERT_THAT(record, IsOk());
  const ratingd::v1::GameResult back = ToProto(*record);
  EXPECT_EQ(back.SerializeAsString(), message.SerializeAsString());
  EXPECT_TRUE(back.has_weight());

  absl::StatusOr<ResultRecord> again = FromProto(back, ResultLimits());
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->result.standings[1].score, -3.25);
}

TEST(GameResultProtoTest, ToProtoAlwaysSetsWeight) {
  ResultRecord record;
  record.pool = "p";
  record.game_id = "g";
  record.result.standings = {{"a", 1, std::nullopt}, {"b", 2, 7.0}};
  const ratingd::v1::GameResult message = ToProto(record);
  EXPECT_TRUE(message.has_weight());
  EXPECT_EQ(message.weight(), 1.0);
  EXPECT_FALSE(message.standings(0).has_score());
  EXPECT_TRUE(message.standings(1).has_score());
  EXPECT_EQ(message.standings(1).score(), 7.0);
}

// Outside the range a Timestamp holds (possible on the wire, not in JSON): refused, named.
TEST(GameResultProtoTest, EventTimeOutsideTheTimestampRange) {
  ratingd::v1::GameResult message = TwoPlayerGame();
  message.mutable_event_time()->set_seconds(253'402'300'800);  // 10000-01-01T00:00:00Z
  EXPECT_THAT(FromProto(message, ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("event_time 10000-01-01T00:00:00+00:00 is outside "
                                 "0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z")));
  message.mutable_event_time()->set_seconds(253'402'300'799);
  EXPECT_THAT(FromProto(message, ResultLimits()), IsOk());
}

TEST(GameResultProtoTest, MissingPool) {
  ratingd::v1::GameResult message = TwoPlayerGame();
  message.clear_pool();
  EXPECT_THAT(FromProto(message, ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, "missing pool"));
}

TEST(GameResultProtoTest, MissingGameId) {
  ratingd::v1::GameResult message = TwoPlayerGame();
  message.clear_game_id();
  EXPECT_THAT(FromProto(message, ResultLimits()),
              StatusIs(absl::StatusCode::kInvalidArgument, "missing game_id"));
}

// Every ValidateResult failure comes back with its own message.
TEST(GameResultProtoTest, ValidationErrorsPropagate) {
  struct Case {
    std::string name;
    void (*mutate)(ratingd::v1::GameResult&);
    std::string message;
  };
  const Case cases[] = {
      {"one standing", [](ratingd::v1::GameResult& m) { m.mutable_standings()->RemoveLast(); },
       "fewer than 2 standings (1)"},
      {"no standings", [](ratingd::v1::GameResult& m) { m.clear_standings(); },
       "fewer than 2 standings (0)"},
      {"too many",
       [](ratingd::v1::GameResult& m) {
         m.add_standings()->set_agent("carol");
         m.mutable_standings(2)->set_rank(3);
       },
       "too many standings (3 > limit 2)"},
      {"zero weight", [](ratingd::v1::GameResult& m) { m.set_weight(0); }, "weight 0"},
      {"negative weight", [](ratingd::v1::GameResult& m) { m.set_weight(-1); }, "weight -1"},
      {"nan weight",
       [](ratingd::v1::GameResult& m) { m.set_weight(std::numeric_limits<double>::quiet_NaN()); },
       "is not a finite number > 0"},
      {"huge weight", [](ratingd::v1::GameResult& m) { m.set_weight(1e300); },
       "weight 1e+300 exceeds the limit of 1e+06"},
      {"empty agent", [](ratingd::v1::GameResult& m) { m.mutable_standings(1)->clear_agent(); },
       "standings[1]: empty agent id"},
      {"long agent",
       [](ratingd::v1::GameResult& m) { m.mutable_standings(0)->set_agent(std::string(9, 'x')); },
       "standings[0]: agent id of 9 bytes exceeds the limit of 8"},
      {"rank zero", [](ratingd::v1::GameResult& m) { m.mutable_standings(1)->set_rank(0); },
       "standings[1]: rank 0 for agent 'bob'; ranks start at 1"},
      {"infinite score",
       [](ratingd::v1::GameResult& m) {
         m.mutable_standings(0)->set_score(std::numeric_limits<double>::infinity());
       },
       "standings[0]: non-finite score for agent 'alice'"},
      {"duplicate agent",
       [](ratingd::v1::GameResult& m) { m.mutable_standings(1)->set_agent("alice"); },
       "standings[1]: agent 'alice' appears twice"},
  };
  ResultLimits limits;
  limits.max_standings = 2;
  limits.max_agent_id_bytes = 8;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ratingd::v1::GameResult message = TwoPlayerGame();
    c.mutate(message);
    EXPECT_THAT(FromProto(message, limits),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)));
  }
}

}  // namespace
}  // namespace ratings::io
