#include "daemon/ratingd/delta_batcher.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ratingd {
namespace {

// Protobuf wire format: a field key is (number << 3) | wire type; type 2 is
// length-delimited (strings, bytes, messages), its length a base-128 varint.
void AppendVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void AppendLengthDelimited(uint32_t field, absl::string_view bytes, std::string& out) {
  AppendVarint((field << 3) | 2, out);
  AppendVarint(bytes.size(), out);
  out.append(bytes.data(), bytes.size());
}

}  // namespace

void DeltaBatcher::Add(absl::string_view pool, absl::string_view model,
                       absl::string_view delta_bytes, int64_t event_unix_us) {
  std::string key = absl::StrCat(pool, "/", model);
  auto [it, inserted] = open_.try_emplace(std::move(key));
  DeltaBatchRecord& batch = it->second;
  if (inserted) {
    batch.key = it->first;
    AppendLengthDelimited(1, pool, batch.value);   // RankingDeltaBatch.pool
    AppendLengthDelimited(2, model, batch.value);  // RankingDeltaBatch.model
  }
  AppendLengthDelimited(3, delta_bytes, batch.value);  // RankingDeltaBatch.deltas
  batch.event_unix_us.push_back(event_unix_us);
  if (batch.value.size() >= kMaxBatchBytes) {
    DeltaBatchRecord full = std::move(batch);
    open_.erase(it);
    EmitOne(std::move(full));
  }
}

void DeltaBatcher::Flush() {
  std::vector<std::string> keys;
  keys.reserve(open_.size());
  for (const auto& [key, batch] : open_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const std::string& key : keys) EmitOne(std::move(open_.at(key)));
  open_.clear();
}

void DeltaBatcher::EmitOne(DeltaBatchRecord&& record) { emit_(std::move(record)); }

}  // namespace ratingd
