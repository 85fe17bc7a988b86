// DeltaBatcher: the RankingDeltaBatch records of the deltas topic, version 2 (docs/CONTRACTS.md
// §1). Expected values come from an independent computation (the same RankingDeltaBatch built
// and serialised with the protobuf API, or parsed back with it), the input's construction
// (which delta went to which key, with which sequence and event time), or a hand calculation
// of the wire format (a length-delimited field is its key byte, the length as a base-128
// varint, then the bytes).
#include "daemon/ratingd/delta_batcher.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratingd/v1/delta.pb.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A RankingDelta of (pool, model) with the given sequence, one change, and a game id of
// `game_id_bytes` bytes (to make the delta as large as a test needs).
v1::RankingDelta Delta(const std::string& pool, const std::string& model, uint64_t sequence,
                       size_t game_id_bytes = 8) {
  v1::RankingDelta d;
  d.set_pool(pool);
  d.set_model(model);
  d.set_sequence(sequence);
  d.set_game_id(std::string(game_id_bytes, 'g'));
  d.set_results(sequence);
  v1::AgentChange* c = d.add_changes();
  c->set_agent("a1");
  c->set_old_rating(1500);
  c->set_new_rating(1516);
  c->set_old_rank(2);
  c->set_new_rank(1);
  d.mutable_event_time()->set_seconds(1'700'000'000 + static_cast<int64_t>(sequence));
  return d;
}

// The batcher and every record it emitted, in emission order.
struct Batcher {
  std::vector<DeltaBatchRecord> emitted;
  DeltaBatcher batcher{[this](DeltaBatchRecord&& r) { emitted.push_back(std::move(r)); }};

  void Add(int32_t partition, const v1::RankingDelta& d, int64_t event_unix_us) {
    batcher.Add(partition, d.pool(), d.model(), d.SerializeAsString(), event_unix_us);
  }
};

// The independent computation: the batch as the protobuf API serialises it.
std::string ProtobufBatch(const std::string& pool, const std::string& model,
                          const std::vector<v1::RankingDelta>& deltas) {
  v1::RankingDeltaBatch batch;
  batch.set_pool(pool);
  batch.set_model(model);
  for (const v1::RankingDelta& d : deltas) *batch.add_deltas() = d;
  return batch.SerializeAsString();
}

// The deltas of a record, parsed back with the protobuf API, as their bytes.
std::vector<std::string> ParsedDeltas(const DeltaBatchRecord& record) {
  v1::RankingDeltaBatch batch;
  EXPECT_TRUE(batch.ParseFromString(record.value)) << record.key;
  std::vector<std::string> out;
  for (const v1::RankingDelta& d : batch.deltas()) out.push_back(d.SerializeAsString());
  return out;
}

std::vector<std::string> BytesOf(const std::vector<v1::RankingDelta>& deltas) {
  std::vector<std::string> out;
  for (const v1::RankingDelta& d : deltas) out.push_back(d.SerializeAsString());
  return out;
}

TEST(DeltaBatcherTest, BatchBytesEqualTheProtobufSerialisationAndParseBack) {
  Batcher b;
  const std::vector<v1::RankingDelta> deltas = {Delta("chess", "elo", 1), Delta("chess", "elo", 2),
                                                Delta("chess", "elo", 3)};
  for (const v1::RankingDelta& d : deltas) b.Add(0, d, 100 * static_cast<int64_t>(d.sequence()));
  EXPECT_TRUE(b.emitted.empty());  // far below kMaxBatchBytes: only Flush hands it out
  b.batcher.Flush();
  ASSERT_EQ(b.emitted.size(), 1u);
  const DeltaBatchRecord& r = b.emitted[0];
  EXPECT_EQ(r.key, "chess/elo");
  EXPECT_EQ(r.value, ProtobufBatch("chess", "elo", deltas));
  v1::RankingDeltaBatch parsed;
  ASSERT_TRUE(parsed.ParseFromString(r.value));
  EXPECT_EQ(parsed.pool(), "chess");
  EXPECT_EQ(parsed.model(), "elo");
  EXPECT_EQ(ParsedDeltas(r), BytesOf(deltas));  // the same deltas, in add order
  EXPECT_THAT(r.event_unix_us, ElementsAre(100, 200, 300));
}

TEST(DeltaBatcherTest, FlushEmitsOneRecordPerKeyInKeyOrderAndLeavesNothingOpen) {
  Batcher b;
  // Construction: go/sco gets sequences 1, 2 (event times 10, 50); chess/elo 1, 2 (20, 40);
  // chess/sco 1 (30). Pool go is in results partition 3, chess in 1.
  b.Add(3, Delta("go", "sco", 1), 10);
  b.Add(1, Delta("chess", "elo", 1), 20);
  b.Add(1, Delta("chess", "sco", 1), 30);
  b.Add(1, Delta("chess", "elo", 2), 40);
  b.Add(3, Delta("go", "sco", 2), 50);
  EXPECT_FALSE(b.batcher.empty());
  EXPECT_TRUE(b.emitted.empty());
  b.batcher.Flush();
  EXPECT_TRUE(b.batcher.empty());
  ASSERT_EQ(b.emitted.size(), 3u);
  EXPECT_EQ(b.emitted[0].key, "chess/elo");
  EXPECT_EQ(b.emitted[1].key, "chess/sco");
  EXPECT_EQ(b.emitted[2].key, "go/sco");
  EXPECT_EQ(b.emitted[0].partition, 1);  // each batch carries its pool's partition
  EXPECT_EQ(b.emitted[1].partition, 1);
  EXPECT_EQ(b.emitted[2].partition, 3);
  EXPECT_THAT(b.emitted[0].event_unix_us, ElementsAre(20, 40));
  EXPECT_THAT(b.emitted[1].event_unix_us, ElementsAre(30));
  EXPECT_THAT(b.emitted[2].event_unix_us, ElementsAre(10, 50));
  EXPECT_EQ(b.emitted[0].value,
            ProtobufBatch("chess", "elo", {Delta("chess", "elo", 1), Delta("chess", "elo", 2)}));
  EXPECT_EQ(b.emitted[1].value, ProtobufBatch("chess", "sco", {Delta("chess", "sco", 1)}));
  EXPECT_EQ(b.emitted[2].value,
            ProtobufBatch("go", "sco", {Delta("go", "sco", 1), Delta("go", "sco", 2)}));
  b.batcher.Flush();  // nothing open: nothing more
  EXPECT_EQ(b.emitted.size(), 3u);
}

TEST(DeltaBatcherTest, KeyPassingMaxBatchBytesIsEmittedAtOnceAndANewBatchStarts) {
  Batcher b;
  b.Add(0, Delta("p", "sco", 1), 7);  // another key: stays open until Flush
  const v1::RankingDelta first = Delta("p", "elo", 1, 10'000);
  const size_t s = first.ByteSizeLong();
  ASSERT_GT(s, 127u);  // construction: a two-byte length, and every delta the same size
  ASSERT_LT(s, 16384u);
  // Hand calculation: the header is pool (1 + 1 + 1 bytes) and model (1 + 1 + 3); each delta
  // adds 1 + 2 + s. The batch passes kMaxBatchBytes with the k-th delta.
  const size_t header = 3 + 5;
  const size_t k = (DeltaBatcher::kMaxBatchBytes - header + (s + 3) - 1) / (s + 3);
  const size_t n = 2 * k + 5;  // two full batches and a rest
  std::vector<v1::RankingDelta> deltas;
  for (size_t i = 1; i <= n; ++i) deltas.push_back(Delta("p", "elo", i, 10'000));
  for (size_t i = 1; i <= n; ++i) {
    b.Add(0, deltas[i - 1], 1000 * static_cast<int64_t>(i));
    const size_t full = i / k;  // construction: batches completed so far
    ASSERT_EQ(b.emitted.size(), full) << "after delta " << i;
  }
  ASSERT_EQ(b.emitted.size(), 2u);
  EXPECT_EQ(b.emitted[0].value.size(), header + k * (s + 3));
  EXPECT_GE(b.emitted[0].value.size(), DeltaBatcher::kMaxBatchBytes);
  EXPECT_LT(b.emitted[0].value.size() - (s + 3), DeltaBatcher::kMaxBatchBytes);
  b.batcher.Flush();
  ASSERT_EQ(b.emitted.size(), 4u);
  EXPECT_EQ(b.emitted[2].key, "p/elo");  // key order: the rest of p/elo, then p/sco
  EXPECT_EQ(b.emitted[3].key, "p/sco");
  EXPECT_THAT(b.emitted[3].event_unix_us, ElementsAre(7));
  // Every p/elo delta exactly once, sequences continuing across the batches; each batch is
  // the protobuf serialisation of its slice.
  std::vector<std::string> all;
  std::vector<int64_t> times;
  size_t from = 0;
  for (size_t r = 0; r < 3; ++r) {
    const DeltaBatchRecord& record = b.emitted[r];
    EXPECT_EQ(record.key, "p/elo");
    const size_t size = r < 2 ? k : 5;
    const std::vector<v1::RankingDelta> slice(deltas.begin() + static_cast<ptrdiff_t>(from),
                                              deltas.begin() + static_cast<ptrdiff_t>(from + size));
    EXPECT_EQ(record.value, ProtobufBatch("p", "elo", slice)) << "batch " << r;
    for (const std::string& d : ParsedDeltas(record)) all.push_back(d);
    times.insert(times.end(), record.event_unix_us.begin(), record.event_unix_us.end());
    from += size;
  }
  EXPECT_EQ(all, BytesOf(deltas));
  std::vector<int64_t> expected_times;
  for (size_t i = 1; i <= n; ++i) expected_times.push_back(1000 * static_cast<int64_t>(i));
  EXPECT_EQ(times, expected_times);
}

TEST(DeltaBatcherTest, ClearDropsEverythingOpen) {
  Batcher b;
  b.Add(0, Delta("chess", "elo", 1), 1);
  b.Add(0, Delta("chess", "sco", 1), 2);
  b.Add(0, Delta("go", "elo", 1), 3);
  b.batcher.Clear();
  EXPECT_TRUE(b.batcher.empty());
  b.batcher.Flush();
  EXPECT_THAT(b.emitted, IsEmpty());
  // The next transaction's batch of the same key starts afresh (its own pool and model).
  b.Add(0, Delta("chess", "elo", 2), 4);
  b.batcher.Flush();
  ASSERT_EQ(b.emitted.size(), 1u);
  EXPECT_EQ(b.emitted[0].value, ProtobufBatch("chess", "elo", {Delta("chess", "elo", 2)}));
  EXPECT_THAT(b.emitted[0].event_unix_us, ElementsAre(4));
}

TEST(DeltaBatcherTest, DeltasWithMultiByteLengthsRoundTrip) {
  Batcher b;
  const std::vector<v1::RankingDelta> deltas = {
      Delta("p", "ml", 1, 200),      // length > 127: two varint bytes
      Delta("p", "ml", 2, 20'000),   // > 16383: three
      Delta("p", "ml", 3),           // one
      Delta("p", "ml", 4, 300'000),  // alone larger than kMaxBatchBytes: emitted at once
  };
  ASSERT_GT(deltas[0].ByteSizeLong(), 127u);
  ASSERT_LT(deltas[0].ByteSizeLong(), 16384u);
  ASSERT_GT(deltas[1].ByteSizeLong(), 16383u);
  ASSERT_GT(deltas[3].ByteSizeLong(), DeltaBatcher::kMaxBatchBytes);
  for (size_t i = 0; i < 3; ++i) b.Add(0, deltas[i], static_cast<int64_t>(i));
  EXPECT_TRUE(b.emitted.empty());
  b.Add(0, deltas[3], 3);
  ASSERT_EQ(b.emitted.size(), 1u);
  EXPECT_TRUE(b.batcher.empty());
  EXPECT_EQ(b.emitted[0].value, ProtobufBatch("p", "ml", deltas));
  EXPECT_EQ(ParsedDeltas(b.emitted[0]), BytesOf(deltas));
  EXPECT_THAT(b.emitted[0].event_unix_us, ElementsAre(0, 1, 2, 3));
  // A delta alone above the limit in a fresh batch is emitted at once, by itself.
  b.Add(0, deltas[3], 4);
  ASSERT_EQ(b.emitted.size(), 2u);
  EXPECT_EQ(b.emitted[1].value, ProtobufBatch("p", "ml", {deltas[3]}));
  EXPECT_THAT(b.emitted[1].event_unix_us, ElementsAre(4));
}

}  // namespace
}  // namespace ratingd
