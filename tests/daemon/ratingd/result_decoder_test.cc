#include "daemon/ratingd/result_decoder.h"

#include <limits>
#include <random>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratingd/v1/game_result.pb.h"

namespace ratingd {
namespace {

using ::testing::HasSubstr;

v1::GameResult Valid() {
  v1::GameResult m;
  m.set_pool("chess");
  m.set_game_id("g1");
  m.mutable_event_time()->set_seconds(1700000000);
  auto* a = m.add_standings();
  a->set_agent("alice");
  a->set_rank(1);
  auto* b = m.add_standings();
  b->set_agent("bob");
  b->set_rank(2);
  return m;
}

std::string Reason(const v1::GameResult& m, const std::string& key = "chess") {
  auto out = DecodeResult(key, m.SerializeAsString(), ratings::ResultLimits{});
  if (auto* r = std::get_if<Rejection>(&out)) return r->reason;
  return "ok";
}

TEST(ResultDecoderTest, DecodesAValidRecord) {
  auto out = DecodeResult("chess", Valid().SerializeAsString(), {});
  ASSERT_TRUE(std::holds_alternative<DecodedResult>(out));
  const DecodedResult& d = std::get<DecodedResult>(out);
  EXPECT_EQ(d.record.pool, "chess");
  EXPECT_EQ(d.record.game_id, "g1");
  EXPECT_EQ(d.record.result.standings.size(), 2u);
  EXPECT_EQ(d.record.result.weight, 1.0);
  EXPECT_EQ(d.event_time.seconds(), 1700000000);
}

// One case per invalid class of docs/CONTRACTS.md §1, each with its reason.
TEST(ResultDecoderTest, EveryInvalidClassHasItsReason) {
  EXPECT_EQ(Reason(Valid()), "ok");
  auto out = DecodeResult("chess", std::string("\x0a\xff\xff", 3), {});
  ASSERT_TRUE(std::holds_alternative<Rejection>(out));
  EXPECT_EQ(std::get<Rejection>(out).reason, "unparseable");
  v1::GameResult m = Valid();
  m.clear_pool();
  EXPECT_EQ(Reason(m, ""), "missing_pool");
  m = Valid();
  m.clear_game_id();
  EXPECT_EQ(Reason(m), "missing_game_id");
  EXPECT_EQ(Reason(Valid(), "go"), "key_mismatch");
  EXPECT_EQ(Reason(Valid(), ""), "key_mismatch");
  m = Valid();
  m.mutable_standings()->RemoveLast();
  EXPECT_EQ(Reason(m), "too_few_standings");
  m = Valid();
  for (int i = 0; i < 300; ++i) m.add_standings()->set_agent(std::to_string(i));
  EXPECT_EQ(Reason(m), "too_many_standings");
  m = Valid();
  m.set_weight(0);
  EXPECT_EQ(Reason(m), "bad_weight");
  m.set_weight(std::numeric_limits<double>::infinity());
  EXPECT_EQ(Reason(m), "bad_weight");
  m = Valid();
  m.mutable_standings(1)->set_agent("");
  EXPECT_EQ(Reason(m), "empty_agent_id");
  m = Valid();
  m.mutable_standings(1)->set_agent(std::string(257, 'x'));
  EXPECT_EQ(Reason(m), "agent_id_too_long");
  m = Valid();
  m.mutable_standings(0)->set_rank(0);
  EXPECT_EQ(Reason(m), "zero_rank");
  m = Valid();
  m.mutable_standings(0)->set_score(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(Reason(m), "bad_score");
  m = Valid();
  m.mutable_standings(1)->set_agent("alice");
  EXPECT_EQ(Reason(m), "duplicate_agent");
  // The range of a Timestamp: 9999-12-31T23:59:59Z is 253,402,300,799 s, 0001-01-01 is
  // -62,135,596,800 s (by hand from the proleptic Gregorian calendar).
  m = Valid();
  m.mutable_event_time()->set_seconds(253'402'300'800);
  EXPECT_EQ(Reason(m), "bad_event_time");
  m.mutable_event_time()->set_seconds(253'402'300'799);
  m.mutable_event_time()->set_nanos(1'000'000'000);
  EXPECT_EQ(Reason(m), "bad_event_time");
  m.mutable_event_time()->set_nanos(-1);
  EXPECT_EQ(Reason(m), "bad_event_time");
  m.mutable_event_time()->set_seconds(-62'135'596'801);
  m.mutable_event_time()->set_nanos(0);
  EXPECT_EQ(Reason(m), "bad_event_time");
  m.mutable_event_time()->set_seconds(-62'135'596'800);
  EXPECT_TRUE(
      std::holds_alternative<DecodedResult>(DecodeResult("chess", m.SerializeAsString(), {})));
  // Every reason given above is in the published list (metric pre-registration).
  for (const char* r :
       {"unparseable", "missing_pool", "missing_game_id", "key_mismatch", "bad_event_time",
        "too_few_standings", "too_many_standings", "bad_weight", "empty_agent_id",
        "agent_id_too_long", "zero_rank", "bad_score", "duplicate_agent"}) {
    EXPECT_THAT(RejectionReasons(), ::testing::Contains(r));
  }
  EXPECT_EQ(RejectionReasons().size(), 13u);
}

TEST(ResultDecoderTest, MessagesNameTheField) {
  v1::GameResult m = Valid();
  m.mutable_standings(0)->set_rank(0);
  auto out = DecodeResult("chess", m.SerializeAsString(), {});
  EXPECT_THAT(std::get<Rejection>(out).message, HasSubstr("standings[0]: rank 0"));
  out = DecodeResult("go", Valid().SerializeAsString(), {});
  EXPECT_THAT(std::get<Rejection>(out).message, HasSubstr("key 'go' is not the pool 'chess'"));
}

// Random bytes and random mutations of a valid record never crash and always classify
// (the libFuzzer target result_decoder_fuzz does this at scale).
TEST(ResultDecoderTest, RandomBytesAreClassifiedNotFatal) {
  std::mt19937_64 rng(1);
  const std::string valid = Valid().SerializeAsString();
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = valid;
    for (int j = 0; j < 3; ++j) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    if (i % 2) bytes.resize(rng() % (bytes.size() + 1));
    auto out = DecodeResult("chess", bytes, {});
    if (auto* r = std::get_if<Rejection>(&out)) {
      EXPECT_THAT(RejectionReasons(), ::testing::Contains(r->reason));
    }
  }
}

}  // namespace
}  // namespace ratingd
