// The other instances' pools as the leaderboards topic tells them (docs/CONTRACTS.md §1.7,
// §3.2): its records folded into RemoteBoards, the latest leaderboard per (pool, model) in
// log order, as compaction keeps them. A (pool, model) is read from one partition at a
// time: a record from another partition replaces the board only if it was committed no
// earlier (records written before the outputs went to their pool's partition, §1.1, stay
// behind in the partition their key hashed to). Kafka-free; LeaderboardCache feeds it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "daemon/ratingd/view_store.h"
#include "ratings/model.h"

namespace ratingd {

class RemoteBoardsBuilder {
 public:
  // One record of topic partition `partition`: key "pool/model", value a serialised
  // Leaderboard, or none (a tombstone: that leaderboard is forgotten, if it came from the
  // same partition). InvalidArgument naming the problem if the value does not parse or
  // names no model, or a tombstone's key has no model; nothing changes then.
  absl::Status Add(int32_t partition, absl::string_view key,
                   std::optional<absl::string_view> value);
  // The boards as they stand if a record changed them since the last call; else null.
  std::shared_ptr<const RemoteBoards> TakeChanged();

 private:
  RemoteBoards boards_;
  // The partition each board of boards_ was read from.
  absl::flat_hash_map<std::pair<std::string, ratings::Model>, int32_t> sources_;
  bool changed_ = false;
};

}  // namespace ratingd
