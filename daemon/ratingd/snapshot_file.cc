#include "daemon/ratingd/snapshot_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace ratingd {
namespace {

absl::Status Errno(const std::string& what, const std::string& path) {
  return absl::InternalError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

absl::Status WriteAll(int fd, absl::string_view data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("cannot write", path);
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

std::string SnapshotPath(const std::string& dir, const std::string& topic, int32_t partition) {
  return absl::StrCat(dir, "/", topic, ".", partition, ".snapshot");
}

absl::StatusOr<size_t> WriteSnapshotFile(const std::string& path, const v1::Snapshot& snapshot) {
  std::string bytes;
  if (!snapshot.SerializeToString(&bytes)) {
    return absl::InternalError(absl::StrCat("cannot serialise the snapshot for ", path));
  }
  return WriteSnapshotBytes(path, bytes);
}

absl::StatusOr<size_t> WriteSnapshotBytes(const std::string& path, const std::string& bytes) {
  return WriteSnapshotPieces(path, {bytes});
}

absl::StatusOr<size_t> WriteSnapshotPieces(const std::string& path,
                                           std::initializer_list<absl::string_view> pieces) {
  const std::string tmp = absl::StrCat(path, ".tmp");
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create", tmp);
  absl::Status written;
  size_t size = 0;
  for (absl::string_view piece : pieces) {
    if (written.ok()) written = WriteAll(fd, piece, tmp);
    size += piece.size();
  }
  if (written.ok() && ::fsync(fd) != 0) written = Errno("cannot fsync", tmp);
  ::close(fd);
  if (!written.ok()) return written;
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Errno("cannot rename to", path);
  const std::string dir = path.substr(0, path.find_last_of('/') + 1);
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return size;
}

absl::StatusOr<std::optional<v1::Snapshot>> ReadSnapshotFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    if (::access(path.c_str(), F_OK) != 0 && errno == ENOENT) return std::nullopt;
    return Errno("cannot open", path);
  }
  std::string bytes(static_cast<size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    return Errno("cannot read", path);
  }
  v1::Snapshot snapshot;
  if (!snapshot.ParseFromString(bytes)) {
    return absl::DataLossError(absl::StrCat(path, ": not a ratingd snapshot (cannot parse)"));
  }
  return snapshot;
}

}  // namespace ratingd
