// The partitions of the results topic this instance holds, with their pools, and the index
// from a pool's name to its partition (a pool lives in exactly one partition: the pool is
// the message key, docs/CONTRACTS.md §1). The one owner of per-partition state; consumer
// thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "daemon/ratingd/live_pool.h"
#include "daemon/ratingd/partition_state.h"

namespace ratingd {

class PartitionRegistry {
 public:
  // Takes a restored partition (replacing one with the same number) and gives it a new
  // incarnation.
  PartitionState& Insert(PartitionState state);
  // Forgets a partition and its pools; nothing if it is not held.
  void Drop(int32_t partition);

  PartitionState* Find(int32_t partition);
  const PartitionState* Find(int32_t partition) const;
  // The pool named `name` if this instance holds it.
  LivePool* FindPool(const std::string& name);
  const LivePool* FindPool(const std::string& name) const;
  // The partition of the pool named `name`, if this instance holds it.
  std::optional<int32_t> PartitionOf(const std::string& name) const;
  // The pool `name` of `partition`, created if new.
  absl::StatusOr<LivePool*> GetOrCreatePool(PartitionState& partition, const std::string& name,
                                            const LivePoolConfig& config);

  // In partition order.
  const std::map<int32_t, PartitionState>& partitions() const { return partitions_; }
  std::map<int32_t, PartitionState>& partitions() { return partitions_; }
  std::vector<int32_t> Held() const;
  bool empty() const { return partitions_.empty(); }
  size_t size() const { return partitions_.size(); }
  // Partitions still replaying records committed before.
  size_t replaying() const;

 private:
  std::map<int32_t, PartitionState> partitions_;
  absl::flat_hash_map<std::string, int32_t> pool_partition_;
  uint64_t next_incarnation_ = 1;
};

}  // namespace ratingd
