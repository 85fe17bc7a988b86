// ratingd's configuration checks (what can be checked without a broker).
#include "daemon/ratingd/daemon_config.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "ratings/pool.h"

namespace ratingd {
namespace {

absl::Status MakeDirs(const std::string& dir) {
  std::string path;
  for (size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || (dir[i] == '/' && i > 0)) {
      path = dir.substr(0, i);
      if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
        return absl::InvalidArgumentError(
            absl::StrCat("--snapshot-dir: cannot create ", path, ": ", std::strerror(errno)));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateDaemonConfig(const DaemonConfig& config) {
  if (config.brokers.empty()) return absl::InvalidArgumentError("--brokers is empty");
  if (config.group.empty()) return absl::InvalidArgumentError("--group is empty");
  for (const auto& [flag, topic] : {std::pair("--results-topic", config.results_topic),
                                    {"--deltas-topic", config.deltas_topic},
                                    {"--leaderboards-topic", config.leaderboards_topic},
                                    {"--dlq-topic", config.dlq_topic},
                                    {"--snapshots-topic", config.snapshots_topic}}) {
    if (topic.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, " is empty"));
  }
  if (config.snapshot_dir.empty()) {
    return absl::InvalidArgumentError("--snapshot-dir is required (where state survives restarts)");
  }
  if (config.snapshot_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--snapshot-interval must be > 0");
  }
  if (config.commit_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--commit-interval must be > 0");
  }
  if (config.min_commit_interval < absl::ZeroDuration() ||
      config.min_commit_interval > config.commit_interval) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--min-commit-interval=", absl::FormatDuration(config.min_commit_interval),
        " must be in [0, --commit-interval=", absl::FormatDuration(config.commit_interval), "]"));
  }
  if (config.dlq_max_bytes < 4096 || config.dlq_max_bytes > 16777216) {
    return absl::InvalidArgumentError(absl::StrCat("--dlq-max-bytes=", config.dlq_max_bytes,
                                                   " is out of range [4096, 16777216]"));
  }
  if (auto s = MakeDirs(config.snapshot_dir); !s.ok()) return s;
  // Fails early, naming the problem, if a parameter is out of range.
  if (auto pool = ratings::Pool::Create(config.pool.options); !pool.ok()) return pool.status();
  if (config.ready_max_lag < 0) {
    return absl::InvalidArgumentError("--ready-max-lag must be >= 0");
  }
  return absl::OkStatus();
}

}  // namespace ratingd
