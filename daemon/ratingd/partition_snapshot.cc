// A partition in snapshots (docs/ARCHITECTURE.md §5): PartitionState's snapshot members and
// the parameters' fingerprint; the pools' part is pool_snapshot.cc, the de-duplication
// segments dedup_segments.cc, the files snapshot_file.cc.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "daemon/model_params.h"
#include "daemon/ratingd/dedup_segments.h"
#include "daemon/ratingd/partition_state.h"
#include "daemon/ratingd/wire_format.h"
#include "ratings/model.h"
#include "ratings/status_macros.h"

namespace ratingd {

v1::Snapshot PartitionState::SnapshotHeader(const std::string& params_fingerprint) const {
  v1::Snapshot s;
  s.set_format(kSnapshotFormat);
  v1::PartitionOffset* offset = s.add_offsets();
  offset->set_topic(topic);
  offset->set_partition(partition);
  offset->set_next_offset(next_offset);
  s.set_params_fingerprint(params_fingerprint);
  return s;
}

v1::Snapshot PartitionState::ToSnapshot(const std::string& params_fingerprint) const {
  v1::Snapshot s = SnapshotHeader(params_fingerprint);
  for (const auto& [name, pool] : pools) *s.add_pools() = pool->ToSnapshot();
  for (const auto& [name, pool] : pools) {
    for (const DedupWindow::SegmentPtr& segment : pool->dedup_window().sealed()) {
      v1::DedupSegment& d = *s.add_dedup_segments();
      d.set_pool(name);
      d.set_seq(segment->seq);
      for (absl::string_view id : segment->ids()) d.add_game_ids(std::string(id));
    }
  }
  return s;
}

absl::StatusOr<PartitionState> PartitionState::FromSnapshot(v1::Snapshot s,
                                                            const LivePoolConfig& config,
                                                            const std::string& params_fingerprint) {
  if (s.format() < kOldestSnapshotFormat || s.format() > kSnapshotFormat) {
    return absl::InvalidArgumentError(absl::StrCat("snapshot format ", s.format(),
                                                   " is not one of the supported ",
                                                   kOldestSnapshotFormat, "..", kSnapshotFormat));
  }
  if (s.offsets_size() != 1) {
    return absl::InvalidArgumentError("a snapshot must hold exactly one partition's offset");
  }
  if (s.params_fingerprint() != params_fingerprint) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the snapshot was taken with other model parameters (", s.params_fingerprint(),
        ") than this run's (", params_fingerprint,
        "); continuing it would not equal a replay. Restart with the original parameters, or "
        "move the snapshot directory away to rebuild the state from the topic"));
  }
  PartitionState state;
  state.topic = s.offsets(0).topic();
  state.partition = s.offsets(0).partition();
  state.next_offset = s.offsets(0).next_offset();
  ASSIGN_OR_RETURN(auto segments, TakeSegmentsByPool(s));
  for (v1::PoolSnapshot& p : *s.mutable_pools()) {
    const std::string name = p.pool();
    std::vector<DedupWindow::Segment> own;
    if (auto it = segments.find(name); it != segments.end()) {
      own = std::move(it->second);
      segments.erase(it);
    }
    ASSIGN_OR_RETURN(std::unique_ptr<LivePool> pool,
                     LivePool::FromSnapshot(std::move(p), config, std::move(own)));
    if (!state.pools.emplace(name, std::move(pool)).second) {
      return absl::InvalidArgumentError(absl::StrCat("pool '", name, "' appears twice"));
    }
  }
  if (!segments.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "de-duplication segments of pool '", segments.begin()->first, "', which is not in it"));
  }
  return state;
}

SnapshotCapture PartitionState::CaptureSnapshot(const std::string& params_fingerprint,
                                                const std::string& group,
                                                int64_t written_unix_ms) const {
  v1::Snapshot s = SnapshotHeader(params_fingerprint);
  s.set_group(group);
  s.set_written_unix_ms(written_unix_ms);
  SnapshotCapture capture;
  capture.header = s.SerializeAsString();
  capture.pools.reserve(pools.size());
  for (const auto& [name, pool] : pools) capture.pools.push_back(pool->CaptureSnapshot());
  return capture;
}

std::string SerializeCapture(const SnapshotCapture& capture) {
  std::string out = capture.header;
  for (const PoolCapture& pool : capture.pools) {
    AppendPoolCapture(v1::Snapshot::kPoolsFieldNumber, pool, out);
  }
  return out;
}

std::string ParamsFingerprint(const LivePoolConfig& config) {
  const ratings::PoolOptions& o = config.options;
  std::string text;
  for (ratings::Model model : ratings::kModels) {
    if (!ratings::ModelOn(o, model)) continue;
    const absl::string_view name = ratings::ModelName(model);
    absl::StrAppend(&text, name, ModelParamsStruct(name, o).ShortDebugString(), ";");
  }
  // "seed=0;" stands where earlier versions printed ratingd's --seed (the seed of a pool
  // generator nothing drew from; both are gone). Fixed at the old default, it keeps the
  // snapshots of deployments that never set --seed valid (docs/ARCHITECTURE.md §5.4).
  absl::StrAppend(&text, "seed=0;max_standings=", o.limits.max_standings,
                  ";max_agent_id_bytes=", o.limits.max_agent_id_bytes,
                  ";dedup_window=", config.dedup_window, ";ml_solve_every=", config.ml_solve_every,
                  ";max_displaced=", config.max_displaced);
  // Appended only when set, so that the snapshots of count-only schedules (every earlier
  // version's) stay valid under --ml-solve-min-interval=0 (docs/ARCHITECTURE.md §5.4).
  if (config.ml_solve_min_interval != absl::ZeroDuration()) {
    absl::StrAppend(&text,
                    ";ml_solve_min_interval=", absl::FormatDuration(config.ml_solve_min_interval));
  }
  // Likewise: earlier versions' snapshots stay valid under --ml-solve-work=0.
  if (config.ml_solve_work != 0) absl::StrAppend(&text, ";ml_solve_work=", config.ml_solve_work);
  return text;
}

}  // namespace ratingd
