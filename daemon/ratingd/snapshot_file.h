// Snapshot files (docs/ARCHITECTURE.md §5): <dir>/<topic>.<partition>.snapshot, written
// atomically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratingd/v1/snapshot.pb.h"

namespace ratingd {

std::string SnapshotPath(const std::string& dir, const std::string& topic, int32_t partition);

// Atomic: writes <path>.tmp, fsyncs it, renames it over <path>, fsyncs the directory.
// Returns the size written.
absl::StatusOr<size_t> WriteSnapshotFile(const std::string& path, const v1::Snapshot& snapshot);
// The same for an already serialised snapshot.
absl::StatusOr<size_t> WriteSnapshotBytes(const std::string& path, const std::string& bytes);
// The same for a snapshot serialised in pieces, written one after the other (a snapshot's
// bytes and the fields appended to them, without joining them in memory first).
absl::StatusOr<size_t> WriteSnapshotPieces(const std::string& path,
                                           std::initializer_list<absl::string_view> pieces);
// nullopt if the file does not exist; an error naming the file if it cannot be read or
// parsed.
absl::StatusOr<std::optional<v1::Snapshot>> ReadSnapshotFile(const std::string& path);

}  // namespace ratingd
