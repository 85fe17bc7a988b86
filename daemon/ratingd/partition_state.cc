#include "daemon/ratingd/partition_state.h"

#include <algorithm>
#include <utility>

#include "ratings/status_macros.h"

namespace ratingd {

absl::StatusOr<LivePool*> PartitionState::GetOrCreate(const std::string& name,
                                                      const LivePoolConfig& config) {
  auto it = pools.find(name);
  if (it == pools.end()) {
    ASSIGN_OR_RETURN(std::unique_ptr<LivePool> pool, LivePool::Create(name, config));
    it = pools.emplace(name, std::move(pool)).first;
  }
  return it->second.get();
}

int64_t PartitionState::Lag(int64_t low, int64_t high) const {
  const int64_t from = next_offset < replay_until ? replay_until : std::max(next_offset, low);
  return std::max<int64_t>(0, high - from);
}

}  // namespace ratingd
