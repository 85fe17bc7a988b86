// PartitionState: snapshot files, the parameter fingerprint, compatibility with snapshots of
// earlier versions, lag.
#include "daemon/ratingd/partition_state.h"

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "daemon/ratingd/wire_format.h"
#include "gmock/gmock.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/unknown_field_set.h"
#include "gtest/gtest.h"
#include "tests/daemon/ratingd/live_pool_testing.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratingd::testing::Applied;
using ::ratingd::testing::Apply;
using ::ratingd::testing::Bytes;
using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::testing::Not;

TEST(PartitionStateTest, SnapshotFileRoundTripAndErrors) {
  const std::string dir = ::testing::TempDir();
  LivePoolConfig config;
  PartitionState state;
  state.topic = "t";
  state.partition = 3;
  state.next_offset = 42;
  LivePool* pool = *state.GetOrCreate("p", config);
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  ASSERT_THAT(pool->Apply(Order({"A", "B"}), "g", /*event_time=*/nullptr, -1, &deltas, &job),
              IsOk());
  const std::string path = SnapshotPath(dir, "t", 3);
  const std::string fp = ParamsFingerprint(config);
  ASSERT_THAT(WriteSnapshotFile(path, state.ToSnapshot(fp)), IsOk());
  auto read = ReadSnapshotFile(path);
  ASSERT_THAT(read, IsOk());
  ASSERT_TRUE(read->has_value());
  auto restored = PartitionState::FromSnapshot(**read, config, fp);
  ASSERT_THAT(restored, IsOk()) << restored.status();
  EXPECT_EQ(restored->next_offset, 42);
  EXPECT_EQ(Bytes(restored->ToSnapshot(fp)), Bytes(state.ToSnapshot(fp)));

  LivePoolConfig other = config;
  other.options.elo_options.k = 16;
  auto refused = PartitionState::FromSnapshot(**read, other, ParamsFingerprint(other));
  EXPECT_THAT(refused, Not(IsOk()));
  EXPECT_THAT(std::string(refused.status().message()),
              ::testing::HasSubstr("other model parameters"));

  auto missing = ReadSnapshotFile(SnapshotPath(dir, "t", 99));
  ASSERT_THAT(missing, IsOk());
  EXPECT_FALSE(missing->has_value());
  {
    std::ofstream junk(SnapshotPath(dir, "t", 4));
    junk << "\xff\xff\xff not a snapshot";
  }
  auto bad = ReadSnapshotFile(SnapshotPath(dir, "t", 4));
  EXPECT_THAT(bad, Not(IsOk()));
  EXPECT_THAT(std::string(bad.status().message()), ::testing::HasSubstr("t.4.snapshot"));
}

// Wire format by hand (protobuf encoding: a field is the varint (number << 3 | wire type)
// then, for wire type 2, a varint length and the bytes).
std::string LengthDelimited(uint32_t number, const std::string& bytes) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.WriteVarint32(number << 3 | 2);
    coded.WriteVarint32(static_cast<uint32_t>(bytes.size()));
    coded.WriteString(bytes);
  }
  return out;
}

// Snapshots of earlier versions carry PoolSnapshot field 7, `string rng` (a std::mt19937_64
// in its text form, ~6 KB), now reserved. Such bytes, built here by hand in the old field
// order (1-6, 7, 8-15), still parse and restore to the same pool, which continues exactly
// as the uninterrupted one. (With the default seed their fingerprint is today's, see the
// next test: this is the upgrade of a default deployment.)
TEST(PartitionStateTest, SnapshotWithTheOldGeneratorFieldStillRestores) {
  LivePoolConfig config;
  config.ml_solve_every = 3;
  const std::string fp = ParamsFingerprint(config);
  std::vector<ratings::Result> results;
  for (int i = 0; i < 12; ++i) {
    std::vector<std::string> players = {absl::StrCat("x", i % 5), absl::StrCat("x", (i + 2) % 5)};
    if (i % 2 == 1) players.push_back(absl::StrCat("x", (i + 4) % 5));
    results.push_back(Order(players));
  }
  const auto run = [&](LivePool& pool, size_t from, size_t to, std::vector<std::string>& out) {
    for (size_t i = from; i < to; ++i) {
      absl::StatusOr<Applied> a = Apply(pool, results[i], absl::StrCat("g", i));
      ASSERT_THAT(a, IsOk());
      for (const auto& d : a->deltas) out.push_back(Bytes(d));
      if (a->job) out.push_back(Bytes(pool.AcceptMlSolution(LivePool::Solve(*std::move(a->job)))));
    }
  };
  PartitionState state;
  state.topic = "t";
  state.partition = 0;
  state.next_offset = 7;
  LivePool* live = *state.GetOrCreate("p", config);
  std::vector<std::string> ignored;
  ASSERT_NO_FATAL_FAILURE(
      run(*live, 0, 7, ignored));  // two ml solutions accepted: fields 11-15 are set
  const v1::Snapshot current = state.ToSnapshot(fp);
  ASSERT_EQ(current.pools_size(), 1);
  ASSERT_GT(current.pools(0).ml_last_rank_size(), 0);

  // The pool message as an earlier version wrote it: fields 1-6, then 7, then 8-15
  // (concatenated messages merge, so head + tail is the pool).
  v1::PoolSnapshot head = current.pools(0);
  head.clear_recent_game_ids();
  head.clear_elo_sequence();
  head.clear_sco_sequence();
  head.clear_ml_sequence();
  head.clear_ml_last_rank();
  head.clear_ml_last_rating();
  head.clear_ml_last_lottery();
  head.clear_ml_last_exploitability();
  v1::PoolSnapshot tail = current.pools(0);
  tail.clear_pool();
  tail.clear_agents();
  tail.clear_results();
  tail.clear_elo();
  tail.clear_sco();
  tail.clear_ml();
  tail.clear_games();  // fields 19-26 (game counts, replicas) are newer: head keeps them once
  tail.clear_points();
  tail.clear_bootstrap_replicas();
  tail.clear_elo_replicas();
  tail.clear_sco_replicas();
  tail.clear_result_counts();
  tail.clear_elo_replica_steps();
  tail.clear_sco_replica_steps();
  tail.clear_ml_last_games();  // field 31, newer too
  std::ostringstream generator;
  generator << std::mt19937_64(0);  // what --seed 0 gave; never drawn from
  ASSERT_GT(generator.str().size(), 5000u);
  const std::string old_pool = Bytes(head) + LengthDelimited(7, generator.str()) + Bytes(tail);
  v1::Snapshot outer = current;
  outer.clear_pools();
  const std::string old_bytes = Bytes(outer) + LengthDelimited(3, old_pool);

  const std::string path = SnapshotPath(::testing::TempDir(), "old-rng", 0);
  ASSERT_THAT(WriteSnapshotBytes(path, old_bytes), IsOk());
  auto read = ReadSnapshotFile(path);
  ASSERT_THAT(read, IsOk()) << read.status();
  ASSERT_TRUE(read->has_value());
  // The field is really there, kept as an unknown field.
  const v1::PoolSnapshot& parsed = (*read)->pools(0);
  const google::protobuf::UnknownFieldSet& unknown =
      parsed.GetReflection()->GetUnknownFields(parsed);
  ASSERT_EQ(unknown.field_count(), 1);
  EXPECT_EQ(unknown.field(0).number(), 7);
  EXPECT_EQ(unknown.field(0).length_delimited(), generator.str());

  auto restored = PartitionState::FromSnapshot(**read, config, fp);
  ASSERT_THAT(restored, IsOk()) << restored.status();
  EXPECT_EQ(Bytes(restored->ToSnapshot(fp)), Bytes(current));
  std::vector<std::string> continued, uninterrupted;
  ASSERT_NO_FATAL_FAILURE(run(*restored->pools.at("p"), 7, results.size(), continued));
  ASSERT_NO_FATAL_FAILURE(run(*live, 7, results.size(), uninterrupted));
  EXPECT_EQ(continued, uninterrupted);
  EXPECT_FALSE(continued.empty());
}

// The fingerprint's tail is the limits, window and schedule (the defaults, written out by
// hand) after a fixed "seed=0;": the text earlier versions wrote with their default --seed,
// so their snapshots still restore; one taken with another seed is refused.
TEST(PartitionStateTest, FingerprintKeepsTheEarlierDefaultSeed) {
  const LivePoolConfig config;
  const std::string fp = ParamsFingerprint(config);
  const std::string tail =
      "seed=0;max_standings=256;max_agent_id_bytes=256;dedup_window=100000;"
      "ml_solve_every=100;max_displaced=1000";
  ASSERT_TRUE(absl::EndsWith(fp, absl::StrCat(";", tail))) << fp;
  const std::string seeded =
      absl::StrCat(fp.substr(0, fp.size() - tail.size()), "seed=3;", tail.substr(7));

  PartitionState state;
  state.topic = "t";
  LivePool* pool = *state.GetOrCreate("p", config);
  std::vector<v1::RankingDelta> deltas;
  std::optional<MlJob> job;
  ASSERT_THAT(pool->Apply(Order({"A", "B"}), "g", /*event_time=*/nullptr, -1, &deltas, &job),
              IsOk());
  EXPECT_THAT(PartitionState::FromSnapshot(state.ToSnapshot(fp), config, fp), IsOk());
  auto refused = PartitionState::FromSnapshot(state.ToSnapshot(seeded), config, fp);
  EXPECT_THAT(refused, Not(IsOk()));
  EXPECT_THAT(std::string(refused.status().message()),
              ::testing::HasSubstr("other model parameters"));
}

// Hand-counted lags: records from the next offset (or the low watermark, if retention
// deleted records before it) up to the high watermark; while replaying, from the committed
// offset (replay_until), since the replayed records were emitted before.
TEST(PartitionStateTest, LagCountsWhatIsNotYetEmitted) {
  PartitionState state;
  state.next_offset = 10;
  EXPECT_EQ(state.Lag(0, 25), 15);   // offsets 10..24
  EXPECT_EQ(state.Lag(12, 25), 13);  // 10 and 11 are gone: 12..24
  EXPECT_EQ(state.Lag(0, 10), 0);    // caught up
  EXPECT_EQ(state.Lag(0, 4), 0);     // never negative
  state.next_offset = 3;
  state.replay_until = 20;         // replaying 3..19
  EXPECT_EQ(state.Lag(0, 25), 5);  // 20..24
  EXPECT_EQ(state.Lag(0, 18), 0);
  state.next_offset = 20;  // replay done
  EXPECT_EQ(state.Lag(0, 25), 5);
}

}  // namespace
}  // namespace ratingd

namespace ratingd {
namespace {

// ml solved every 4 results, glicko2 on (its state is in the head), histories of 4 points
// (thinned at every other point).
LivePoolConfig GlickoAndShortHistories() {
  LivePoolConfig config;
  config.ml_solve_every = 4;
  config.options.glicko2 = true;
  config.history_points = 4;
  return config;
}

TEST(PartitionStateTest, SerializedSnapshotParsesToTheSnapshotMessage) {
  // SerializeSnapshot writes the game ids, the per-agent columns and the histories by hand;
  // protobuf's own serialisation of ToSnapshot (group and time set) is the independent
  // reference: both parse to equal messages, game ids in the same order. With glicko2 on (its
  // state is in the head) and histories of 4 points, thinned, of results with and without
  // event times (nanoseconds, and times before 1970).
  const LivePoolConfig config = GlickoAndShortHistories();
  const std::string fp = ParamsFingerprint(config);
  PartitionState state;
  state.topic = "t";
  state.partition = 3;
  state.next_offset = 41;
  for (const std::string name : {"chess", "go"}) {
    LivePool* pool = *state.GetOrCreate(name, config);
    for (int i = 0; i < 40; ++i) {
      // Game ids of 1 to 200 bytes: one- and two-byte length prefixes.
      const std::string id = absl::StrCat(name, std::string(static_cast<size_t>(i * 5), 'x'), i);
      google::protobuf::Timestamp t;
      t.set_seconds(-86'400 + 3'600 * i);
      t.set_nanos(i % 2 == 0 ? 0 : 123'456'789);
      absl::StatusOr<Applied> a =
          Apply(*pool, Order({absl::StrCat("a", i % 6), absl::StrCat("a", (i + 1) % 6)}), id, -1,
                i % 5 == 0 ? nullptr : &t);
      ASSERT_THAT(a, IsOk());
      if (a->job) pool->AcceptMlSolution(LivePool::Solve(*std::move(a->job)));
    }
  }
  v1::Snapshot expected = state.ToSnapshot(fp);
  expected.set_group("g");
  expected.set_written_unix_ms(1234);
  v1::Snapshot parsed;
  ASSERT_TRUE(parsed.ParseFromString(state.SerializeSnapshot(fp, "g", 1234)));
  EXPECT_EQ(Bytes(parsed), Bytes(expected));
  ASSERT_EQ(parsed.pools_size(), 2);
  EXPECT_EQ(parsed.pools(1).recent_game_ids_size(), 40);
  ASSERT_EQ(parsed.pools(1).histories_size(), 3);  // elo, sco, glicko2
  EXPECT_EQ(parsed.pools(1).histories(2).model(), "glicko2");
  EXPECT_EQ(parsed.pools(1).histories(2).counts_size(), 6);
  EXPECT_EQ(parsed.pools(1).histories(2).sequence_size(), 6 * 4);
}

// The hand-written columns of a wide pool: replica steps in more than one block of 4,096
// agents, names with one- and two-byte length prefixes, elo only with no ml, and the same
// reference as above.
TEST(PartitionStateTest, SerializedSnapshotOfAWidePoolParsesToTheSnapshotMessage) {
  LivePoolConfig config;
  config.options.sco = false;
  config.options.ml = false;
  config.max_displaced = 1;  // deltas are not under test: keep them short
  config.history_points = 128;
  const std::string fp = ParamsFingerprint(config);
  PartitionState state;
  state.topic = "t";
  LivePool* pool = *state.GetOrCreate("wide", config);
  const auto name = [](int i) {
    return absl::StrCat(std::string(static_cast<size_t>(i % 250), 'n'), i);
  };
  for (int i = 0; i < 9'000; i += 2) {
    ASSERT_THAT(Apply(*pool, Order({name(i), name(i + 1)}), absl::StrCat("g", i)), IsOk());
  }
  for (int i = 0; i < 200; ++i) {  // moves replicas far from some points: longer varints
    ASSERT_THAT(Apply(*pool, Order({name(0), name(i + 1)}), absl::StrCat("h", i)), IsOk());
  }
  ASSERT_GT(pool->pool().index().size(), 8'192u);
  v1::Snapshot expected = state.ToSnapshot(fp);
  expected.set_group("g");
  ASSERT_EQ(expected.dedup_segments_size(), 1);  // 4,700 ids: one sealed segment of 4,096
  expected.clear_dedup_segments();               // which SerializeSnapshot leaves out
  v1::Snapshot parsed;
  ASSERT_TRUE(parsed.ParseFromString(state.SerializeSnapshot(fp, "g", 0)));
  EXPECT_EQ(wire::CountVarints(parsed.pools(0).elo_replica_steps()), 9'000 * 16);
  EXPECT_TRUE(parsed.pools(0).sco().empty());
  EXPECT_EQ(Bytes(parsed), Bytes(expected));
}

}  // namespace
}  // namespace ratingd

namespace ratingd {
namespace {

// A snapshot is captured on the consumer thread and serialised on another while the pools
// go on (docs/ARCHITECTURE.md §4.2): the capture shares the histories' points, and what it
// serialises to must be the state at the capture whatever the pools did since. Here a
// thread serialises the capture while this one applies 60 more results to each pool (each
// history of 4 points thins at every other point, agents b3..b8 arrive); the reference is
// protobuf's serialisation of ToSnapshot taken at the capture. Under TSan, a write to a
// point the capture shares is also a reported race.
TEST(PartitionStateTest, ACaptureSerialisesToTheStateAtItsTimeWhileThePoolsGoOn) {
  const LivePoolConfig config = GlickoAndShortHistories();
  const std::string fp = ParamsFingerprint(config);
  PartitionState state;
  state.topic = "t";
  state.next_offset = 7;
  const auto play = [&](int from, int to) {
    for (const std::string name : {"chess", "go"}) {
      LivePool* pool = *state.GetOrCreate(name, config);
      for (int i = from; i < to; ++i) {
        ASSERT_THAT(Apply(*pool, Order({absl::StrCat("a", i % 9), absl::StrCat("b", i / 10)}),
                          absl::StrCat(name, i)),
                    IsOk());
      }
    }
  };
  play(0, 30);
  v1::Snapshot expected = state.ToSnapshot(fp);
  expected.set_group("g");
  expected.set_written_unix_ms(99);
  expected.clear_dedup_segments();  // (none: 30 ids seal no segment)
  const SnapshotCapture capture = state.CaptureSnapshot(fp, "g", 99);
  std::string bytes;
  std::thread serializer([&] { bytes = SerializeCapture(capture); });
  play(30, 90);
  serializer.join();
  v1::Snapshot parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(Bytes(parsed), Bytes(expected));
  // The pools did move on: their snapshot now is another.
  EXPECT_NE(Bytes(state.ToSnapshot(fp).pools(0)), Bytes(expected.pools(0)));
  EXPECT_EQ(parsed.pools(0).histories(0).counts_size(), 12);  // a0..a8, b0..b2 by then
}

}  // namespace
}  // namespace ratingd
