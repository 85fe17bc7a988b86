// Checks of what a FakeBroker's committed output holds, for the record path's unit tests:
// exactly-once of the deltas, the deltas an uninterrupted offline run gives (the independent
// reference), leaderboards caught up with their deltas, dead-letter headers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/result_decoder.h"
#include "gtest/gtest.h"
#include "tests/fakes/fake_broker.h"

namespace ratingd::testing {

// The committed deltas' bytes by key ("pool/model"), in log order.
inline std::map<std::string, std::vector<std::string>> DeltasByKey(const FakeBroker& broker) {
  std::map<std::string, std::vector<std::string>> out;
  for (const FakeRecord& r : broker.deltas) out[r.key].push_back(r.value);
  return out;
}

// Success if every key's committed deltas carry the sequences 1, 2, ..., n in log order:
// each (pool, model, sequence) once, none skipped (a missing tail is not seen: compare the
// counts or the contents with a reference for that).
inline ::testing::AssertionResult SequencesOneToN(const FakeBroker& broker) {
  std::map<std::string, uint64_t> last;
  for (const v1::RankingDelta& d : broker.Deltas()) {
    uint64_t& seen = last[absl::StrCat(d.pool(), "/", d.model())];
    if (d.sequence() != seen + 1) {
      return ::testing::AssertionFailure()
             << d.pool() << "/" << d.model() << ": sequence " << d.sequence() << " after " << seen;
    }
    seen = d.sequence();
  }
  return ::testing::AssertionSuccess();
}

// The independent reference: the deltas an uninterrupted run gives for the broker's results,
// by key, serialised. Computed offline, without the pipeline (no transactions, restores or
// replays): each partition's records are decoded and applied in offset order to fresh
// LivePools; an ml job is solved and accepted at once (a solution depends only on its job).
inline std::map<std::string, std::vector<std::string>> OfflineDeltas(const FakeBroker& broker,
                                                                     const LivePoolConfig& config) {
  std::map<std::string, std::vector<std::string>> out;
  for (const std::vector<FakeBroker::Input>& log : broker.results) {
    std::map<std::string, std::unique_ptr<LivePool>> pools;
    for (const FakeBroker::Input& input : log) {
      auto decoded = DecodeResult(input.key.value_or(""), input.value, config.options.limits);
      const auto* d = std::get_if<DecodedResult>(&decoded);
      if (d == nullptr) continue;  // a dead letter
      std::unique_ptr<LivePool>& pool = pools[d->record.pool];
      if (pool == nullptr) pool = *LivePool::Create(d->record.pool, config);
      std::vector<v1::RankingDelta> deltas;
      std::optional<MlJob> job;
      if (!pool->Apply(d->record.result, d->record.game_id,
                       d->record.event_time ? &d->event_time : nullptr, input.timestamp_ms, &deltas,
                       &job)
               .ok()) {
        continue;
      }
      for (const v1::RankingDelta& delta : deltas) {
        out[absl::StrCat(delta.pool(), "/", delta.model())].push_back(delta.SerializeAsString());
      }
      if (job) {
        const v1::RankingDelta ml = pool->AcceptMlSolution(LivePool::Solve(*std::move(job)));
        out[absl::StrCat(ml.pool(), "/ml")].push_back(ml.SerializeAsString());
      }
    }
  }
  return out;
}

// Success if `actual` holds exactly `expected`'s deltas (as DeltasByKey gives them), key by
// key and in order; otherwise says readably where they first differ.
inline ::testing::AssertionResult SameDeltas(
    const std::map<std::string, std::vector<std::string>>& actual,
    const std::map<std::string, std::vector<std::string>>& expected) {
  const std::vector<std::string> none;
  std::set<std::string> keys;
  for (const auto& [key, deltas] : actual) keys.insert(key);
  for (const auto& [key, deltas] : expected) keys.insert(key);
  for (const std::string& key : keys) {
    const auto a = actual.find(key), e = expected.find(key);
    const std::vector<std::string>& got = a == actual.end() ? none : a->second;
    const std::vector<std::string>& want = e == expected.end() ? none : e->second;
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
      if (got[i] == want[i]) continue;
      v1::RankingDelta g, w;
      g.ParseFromString(got[i]);
      w.ParseFromString(want[i]);
      return ::testing::AssertionFailure()
             << key << ", delta " << i << ": {" << g.ShortDebugString() << "} where {"
             << w.ShortDebugString() << "} was expected";
    }
    if (got.size() != want.size()) {
      return ::testing::AssertionFailure()
             << key << ": " << got.size() << " deltas where " << want.size() << " were expected";
    }
  }
  return ::testing::AssertionSuccess();
}

// Success if the last committed leaderboard of every key with deltas is at its last delta
// (same sequence and results count).
inline ::testing::AssertionResult LeaderboardsAtLastDeltas(const FakeBroker& broker) {
  const std::map<std::string, v1::Leaderboard> boards = broker.LastLeaderboards();
  for (const auto& [key, delta] : broker.LastDeltas()) {
    auto board = boards.find(key);
    if (board == boards.end()) return ::testing::AssertionFailure() << key << ": no leaderboard";
    if (board->second.results() != delta.results() ||
        board->second.sequence() != delta.sequence()) {
      return ::testing::AssertionFailure()
             << key << ": the leaderboard is at results " << board->second.results()
             << ", sequence " << board->second.sequence() << "; the last delta at results "
             << delta.results() << ", sequence " << delta.sequence();
    }
  }
  return ::testing::AssertionSuccess();
}

// The value of a record's header `name`; "" if it has none.
inline std::string Header(const FakeRecord& record, const std::string& name) {
  for (const auto& [n, value] : record.headers) {
    if (n == name) return value;
  }
  return "";
}

}  // namespace ratingd::testing
