#include "daemon/ratingd/partition_registry.h"

#include <utility>

namespace ratingd {

PartitionState& PartitionRegistry::Insert(PartitionState state) {
  Drop(state.partition);
  state.incarnation_ = next_incarnation_++;
  const int32_t p = state.partition;
  for (const auto& [name, pool] : state.pools) pool_partition_[name] = p;
  return partitions_.insert_or_assign(p, std::move(state)).first->second;
}

void PartitionRegistry::Drop(int32_t partition) {
  auto it = partitions_.find(partition);
  if (it == partitions_.end()) return;
  for (const auto& [name, pool] : it->second.pools) pool_partition_.erase(name);
  partitions_.erase(it);
}

PartitionState* PartitionRegistry::Find(int32_t partition) {
  auto it = partitions_.find(partition);
  return it == partitions_.end() ? nullptr : &it->second;
}

const PartitionState* PartitionRegistry::Find(int32_t partition) const {
  auto it = partitions_.find(partition);
  return it == partitions_.end() ? nullptr : &it->second;
}

LivePool* PartitionRegistry::FindPool(const std::string& name) {
  return const_cast<LivePool*>(static_cast<const PartitionRegistry*>(this)->FindPool(name));
}

const LivePool* PartitionRegistry::FindPool(const std::string& name) const {
  auto where = pool_partition_.find(name);
  if (where == pool_partition_.end()) return nullptr;
  const PartitionState* partition = Find(where->second);
  if (partition == nullptr) return nullptr;
  auto pool = partition->pools.find(name);
  return pool == partition->pools.end() ? nullptr : pool->second.get();
}

std::optional<int32_t> PartitionRegistry::PartitionOf(const std::string& name) const {
  auto where = pool_partition_.find(name);
  if (where == pool_partition_.end() || Find(where->second) == nullptr) return std::nullopt;
  return where->second;
}

absl::StatusOr<LivePool*> PartitionRegistry::GetOrCreatePool(PartitionState& partition,
                                                             const std::string& name,
                                                             const LivePoolConfig& config) {
  const size_t before = partition.pools.size();
  absl::StatusOr<LivePool*> pool = partition.GetOrCreate(name, config);
  if (pool.ok() && partition.pools.size() != before) pool_partition_[name] = partition.partition;
  return pool;
}

std::vector<int32_t> PartitionRegistry::Held() const {
  std::vector<int32_t> held;
  for (const auto& [p, state] : partitions_) held.push_back(p);
  return held;
}

size_t PartitionRegistry::replaying() const {
  size_t n = 0;
  for (const auto& [p, state] : partitions_) n += state.replaying();
  return n;
}

}  // namespace ratingd
