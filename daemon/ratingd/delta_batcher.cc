#include "daemon/ratingd/delta_batcher.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/wire_format.h"

namespace ratingd {

using wire::AppendLengthDelimited;
using wire::AppendLengthDelimitedKey;
using wire::AppendVarint;

DeltaBatchRecord& DeltaBatcher::Open(int32_t partition, absl::string_view pool,
                                     absl::string_view model) {
  key_scratch_.clear();
  absl::StrAppend(&key_scratch_, pool, "/", model);
  auto it = open_.find(key_scratch_);
  if (it == open_.end()) {
    it = open_.try_emplace(key_scratch_).first;
    DeltaBatchRecord& batch = it->second;
    batch.partition = partition;
    batch.key = it->first;
    // Taken at once rather than grown by doubling from empty (a dozen reallocations and
    // copies per batch under a backlog); the producer copies the bytes, so the buffer is
    // freed, and reused by the allocator, as soon as the batch is sent.
    batch.value.reserve(kReservedBatchBytes);
    batch.event_unix_us.reserve(kReservedBatchBytes / 128);
    AppendLengthDelimited(1, pool, batch.value);   // RankingDeltaBatch.pool
    AppendLengthDelimited(2, model, batch.value);  // RankingDeltaBatch.model
  }
  return it->second;
}

void DeltaBatcher::EmitIfFull(DeltaBatchRecord& batch) {
  if (batch.value.size() < kMaxBatchBytes) return;
  DeltaBatchRecord full = std::move(batch);
  open_.erase(full.key);
  emit_(std::move(full));
}

void DeltaBatcher::Add(int32_t partition, absl::string_view pool, absl::string_view model,
                       absl::string_view delta_bytes, int64_t event_unix_us) {
  DeltaBatchRecord& batch = Open(partition, pool, model);
  AppendLengthDelimited(3, delta_bytes, batch.value);  // RankingDeltaBatch.deltas
  batch.event_unix_us.push_back(event_unix_us);
  EmitIfFull(batch);
}

void DeltaBatcher::Add(int32_t partition, const v1::RankingDelta& delta, int64_t event_unix_us) {
  DeltaBatchRecord& batch = Open(partition, delta.pool(), delta.model());
  const size_t size = delta.ByteSizeLong();
  AppendLengthDelimitedKey(3, batch.value);  // RankingDeltaBatch.deltas
  AppendVarint(size, batch.value);
  const size_t at = batch.value.size();
  batch.value.resize(at + size);
  delta.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(batch.value.data() + at));
  batch.event_unix_us.push_back(event_unix_us);
  EmitIfFull(batch);
}

void DeltaBatcher::Flush() {
  std::vector<std::string> keys;
  keys.reserve(open_.size());
  for (const auto& [key, batch] : open_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const std::string& key : keys) emit_(std::move(open_.at(key)));
  open_.clear();
}

}  // namespace ratingd
