// Batches the deltas of one transaction by (pool, model) (docs/CONTRACTS.md §1, deltas topic
// version 2): one RankingDeltaBatch record per key instead of one record per result, which
// is most of what a result costs the broker and the producer. The batch is serialised by
// appending each delta's bytes as field 3 of RankingDeltaBatch (a length-delimited field),
// so a delta is serialised once and never copied as a message. Consumer thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "ratingd/v1/delta.pb.h"

namespace ratingd {

// A RankingDeltaBatch ready to send: its key "pool/model", its bytes, and the event time
// of each delta in it (for the end-to-end latency).
struct DeltaBatchRecord {
  int32_t partition = 0;  // the pool's results partition (OutputSink::Delta)
  std::string key;
  std::string value;
  std::vector<int64_t> event_unix_us;
};

class DeltaBatcher {
 public:
  // A batch is handed out once it passes this many bytes: far below the deltas topic's
  // default max.message.bytes (1 MB), and small enough that under a backlog the batches are
  // sent while the transaction goes on, so its commit waits only for the last ones.
  static constexpr size_t kMaxBatchBytes = 64 * 1024;
  // A batch's buffer is reserved at this size when it opens: a full batch and its last delta.
  static constexpr size_t kReservedBatchBytes = kMaxBatchBytes + 8 * 1024;
  using Emit = std::function<void(DeltaBatchRecord&&)>;

  explicit DeltaBatcher(Emit emit) : emit_(std::move(emit)) {}

  // Appends one serialised RankingDelta of (pool, model); `partition` is the pool's results
  // partition.
  void Add(int32_t partition, absl::string_view pool, absl::string_view model,
           absl::string_view delta_bytes, int64_t event_unix_us);
  // The same, serialising `delta` straight into its batch (no intermediate copy).
  void Add(int32_t partition, const v1::RankingDelta& delta, int64_t event_unix_us);
  // Hands out every open batch, in key order; nothing is open afterwards.
  void Flush();
  // Drops every open batch (their transaction was aborted).
  void Clear() { open_.clear(); }
  bool empty() const { return open_.empty(); }

 private:
  Emit emit_;
  absl::flat_hash_map<std::string, DeltaBatchRecord> open_;  // by key
  std::string key_scratch_;  // "pool/model" of the delta being added: no allocation per Add
  // The open batch of (pool, model), started if there is none.
  DeltaBatchRecord& Open(int32_t partition, absl::string_view pool, absl::string_view model);
  // Emits the batch if it passed kMaxBatchBytes.
  void EmitIfFull(DeltaBatchRecord& batch);
};

}  // namespace ratingd
