// The other instances' pools as the leaderboards topic tells them (docs/CONTRACTS.md §1.7,
// §3.2): its records folded into RemoteBoards, the latest leaderboard per (pool, model) in
// log order, as compaction keeps them. Kafka-free; LeaderboardCache feeds it.
#pragma once

#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "daemon/ratingd/view_store.h"

namespace ratingd {

class RemoteBoardsBuilder {
 public:
  // One record: key "pool/model", value a serialised Leaderboard, or none (a tombstone:
  // that leaderboard is forgotten). InvalidArgument naming the problem if the value does
  // not parse or names no model, or a tombstone's key has no model; nothing changes then.
  absl::Status Add(absl::string_view key, std::optional<absl::string_view> value);
  // The boards as they stand if a record changed them since the last call; else null.
  std::shared_ptr<const RemoteBoards> TakeChanged();

 private:
  RemoteBoards boards_;
  bool changed_ = false;
};

}  // namespace ratingd
