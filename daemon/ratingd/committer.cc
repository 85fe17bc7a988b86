#include "daemon/ratingd/committer.h"

#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/snapshot_chunks.h"

namespace ratingd {
namespace {

double UnixSeconds(absl::Time t) { return absl::ToDoubleSeconds(t - absl::UnixEpoch()); }

}  // namespace

Committer::Committer(const DaemonConfig& config, const std::string& fingerprint,
                     PartitionRegistry* registry, OutputSink* sink, Metrics* metrics,
                     const Clock* clock)
    : config_(config),
      fingerprint_(fingerprint),
      registry_(registry),
      sink_(sink),
      metrics_(metrics),
      clock_(clock),
      started_(clock->Now()),
      last_snapshot_(clock->Now()),
      // Unique per run: a snapshot's chunks are told apart from an older run's by this id.
      next_snapshot_id_(static_cast<uint64_t>(absl::ToUnixNanos(clock->Now())) << 8),
      serializer_(config.group, config.results_topic) {}

absl::Status Committer::Begin() {
  if (open_) return absl::OkStatus();
  absl::Status s = sink_->Begin();
  if (!s.ok()) return s;
  open_ = true;
  records_ = 0;
  started_ = clock_->Now();
  return absl::OkStatus();
}

bool Committer::CommitDue(bool input_idle) const {
  const absl::Duration open_for = clock_->Now() - started_;
  if (input_idle && open_for >= config_.min_commit_interval &&
      (records_ > 0 || HasSegmentsAhead())) {
    return true;
  }
  return open_for >= config_.commit_interval || records_ >= kMaxTransactionRecords;
}

bool Committer::SnapshotsDue() const {
  return clock_->Now() - last_snapshot_ >= config_.snapshot_interval;
}

std::vector<PartitionOffset> Committer::OffsetsToCommit() const {
  std::vector<PartitionOffset> offsets;
  for (const auto& [p, state] : registry_->partitions()) {
    if (state.replaying()) continue;  // never move a commit backwards
    if (state.committed_offset() == state.next_offset || state.next_offset <= 0) continue;
    offsets.push_back({p, state.next_offset});
  }
  return offsets;
}

bool Committer::HasSegmentsAhead() const {
  if (none_ahead_) return false;
  for (const auto& [p, state] : registry_->partitions()) {
    if (!state.replaying() && ratingd::HasSegmentsAhead(state)) return true;
  }
  none_ahead_ = true;
  return false;
}

void Committer::ProduceSegmentsAhead() {
  size_t budget = kSegmentsAheadBytes;
  for (auto& [p, state] : registry_->partitions()) {
    if (state.replaying()) continue;
    for (const SnapshotRecord& r : TakeSegmentsAhead(config_.group, state, &budget)) {
      absl::Status s = sink_->SnapshotChunk(p, r.key, *r.value);
      if (!s.ok()) Log(std::string(s.message()));  // the commit fails and rolls back
    }
  }
}

bool Committer::WantsSnapshot(const PartitionState& state) const {
  // Not at a committed point while replaying; nothing new if the offset did not move.
  return !state.replaying() && state.snapshot_offset() != state.next_offset;
}

CapturedSnapshot Committer::Capture(PartitionState& state) {
  const auto start = std::chrono::steady_clock::now();
  CapturedSnapshot captured;
  captured.partition = state.partition;
  captured.incarnation = state.incarnation();
  captured.next_offset = state.next_offset;
  captured.snapshot_id = next_snapshot_id_++;
  captured.capture =
      state.CaptureSnapshot(fingerprint_, config_.group, absl::ToUnixMillis(clock_->Now()));
  // The de-duplication segments new since the last snapshot, and tombstones for those it
  // no longer refers to (docs/ARCHITECTURE.md §5.2).
  captured.dedup = TakeDedupRecords(config_.group, state);
  captured.sealed = SealedSegments(state);
  captured.capture_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return captured;
}

void Committer::Produce(SerializedSnapshot snapshot, std::vector<PendingFile>* files) {
  const auto start = std::chrono::steady_clock::now();
  const int32_t p = snapshot.partition;
  for (const ChunkRecord& chunk : snapshot.chunks) {
    absl::Status s = sink_->SnapshotChunk(p, chunk.key, chunk.value);
    if (!s.ok()) Log(std::string(s.message()));  // the commit fails and rolls back
  }
  size_t size = snapshot.bytes->size();
  for (const SnapshotRecord& r : snapshot.dedup) {
    absl::Status s =
        r.value ? sink_->SnapshotChunk(p, r.key, *r.value) : sink_->SnapshotTombstone(p, r.key);
    if (!s.ok()) Log(std::string(s.message()));
    if (r.value) size += r.value->size();
  }
  metrics_->snapshot_duration().Observe(
      snapshot.capture_seconds +
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  metrics_->SnapshotSize(p).Set(static_cast<double>(size));
  files->push_back(
      {p, snapshot.next_offset, std::move(snapshot.bytes), std::move(snapshot.sealed)});
}

void Committer::ProduceSnapshots(bool all, std::vector<PendingFile>* files) {
  if (all) last_snapshot_ = clock_->Now();
  for (auto& [p, state] : registry_->partitions()) {
    if (state.replaying()) continue;
    if (!state.TakeSnapshotRequest() && !all) continue;
    if (!WantsSnapshot(state)) continue;
    Produce(SerializeSnapshot(Capture(state), config_.group, config_.results_topic), files);
  }
}

void Committer::ProduceSerialized(bool wait) {
  if (!open_) return;
  std::optional<std::vector<SerializedSnapshot>> round = serializer_.Take(wait);
  if (!round) return;
  for (SerializedSnapshot& snapshot : *round) {
    // A partition revoked or restored since its capture: its snapshot is of a state this
    // instance no longer holds (a rollback discards the whole round; this guards the rest).
    const PartitionState* state = registry_->Find(snapshot.partition);
    if (state == nullptr || state->incarnation() != snapshot.incarnation) continue;
    Produce(std::move(snapshot), &files_);
  }
}

bool Committer::InjectAbort() {
  if (config_.fault_abort_every == 0 || stopping_ || ++attempts_ % config_.fault_abort_every != 0) {
    return false;
  }
  // Abort only once the coordinator holds the transaction: an EndTxn(abort) racing an
  // AddPartitionsToTxn that is still being retried (most likely CONCURRENT_TRANSACTIONS
  // right after the previous commit) gets INVALID_TXN_STATE, which librdkafka makes fatal
  // (confluentinc/librdkafka#4849). Every delivered record implies a registered partition.
  if (sink_->Flush(absl::Seconds(10))) {
    Log("fault injection: aborting this transaction (RATINGD_FAULT_ABORT_EVERY)");
    return true;
  }
  Log("fault injection: output not delivered within 10 s; committing instead");
  return false;
}

void Committer::StartSnapshots() {
  if (!open_ || serializer_.busy()) return;
  last_snapshot_ = clock_->Now();
  std::vector<CapturedSnapshot> round;
  for (auto& [p, state] : registry_->partitions()) {
    if (WantsSnapshot(state)) round.push_back(Capture(state));
  }
  if (!round.empty()) serializer_.Submit(std::move(round));
}

absl::Status Committer::Commit(bool with_snapshots, bool segments_ahead) {
  if (!open_) return absl::FailedPreconditionError("no transaction is open");
  // A snapshot of every partition now (a revocation, a shutdown): the round in flight first.
  if (with_snapshots) ProduceSerialized(/*wait=*/true);
  ProduceSnapshots(with_snapshots, &files_);
  if (segments_ahead) ProduceSegmentsAhead();
  const std::vector<PartitionOffset> offsets = OffsetsToCommit();
  if (sink_->produced() == 0 && offsets.empty()) {
    started_ = clock_->Now();  // nothing to commit; the transaction stays open
    records_ = 0;
    metrics_->last_commit().Set(UnixSeconds(clock_->Now()));
    // Every caught-up partition's committed snapshot is current.
    if (with_snapshots) metrics_->last_snapshot().Set(UnixSeconds(clock_->Now()));
    return absl::OkStatus();  // (no file is pending: nothing was produced)
  }
  if (InjectAbort()) return absl::AbortedError("fault injection");
  const absl::Time start = clock_->Now();
  absl::Status s = sink_->Commit(offsets);
  if (!s.ok()) return s;
  Committed(offsets, start);
  return Begin();
}

void Committer::Committed(const std::vector<PartitionOffset>& offsets, absl::Time start) {
  std::vector<PendingFile> files = std::exchange(files_, {});
  open_ = false;
  const absl::Time now = clock_->Now();
  metrics_->Transactions("committed").Increment();
  metrics_->last_commit().Set(UnixSeconds(now));
  metrics_->commit_duration().Observe(absl::ToDoubleSeconds(now - start));
  metrics_->transaction_open().Observe(absl::ToDoubleSeconds(now - started_));
  for (const PartitionOffset& o : offsets) {
    if (PartitionState* state = registry_->Find(o.partition)) state->OffsetCommitted(o.next_offset);
  }
  if (!files.empty()) metrics_->last_snapshot().Set(UnixSeconds(now));
  // The committed snapshots also go to local files: a restart on this host whose
  // committed offset is still the file's skips reading the snapshots topic.
  for (PendingFile& f : files) {
    if (PartitionState* state = registry_->Find(f.partition))
      state->SnapshotCommitted(f.next_offset);
    const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, f.partition);
    writer_.Submit([this, path, bytes = std::move(f.bytes), segments = std::move(f.segments)] {
      std::string segment_fields;  // Snapshot.dedup_segments, after the snapshot's own bytes
      AppendDedupSegments(segments, segment_fields);
      absl::StatusOr<size_t> written = WriteSnapshotPieces(path, {*bytes, segment_fields});
      if (written.ok()) return;
      MutexLock lock(&written_mu_);
      write_failures_.push_back(written.status());
    });
  }
}

absl::Status Committer::Abort() {
  if (!open_) return absl::OkStatus();
  absl::Status s = sink_->Abort();
  if (!s.ok()) return s;
  open_ = false;
  files_.clear();         // their snapshots were in the aborted transaction
  serializer_.Discard();  // of the state being rebuilt
  metrics_->Transactions("aborted").Increment();
  return absl::OkStatus();
}

void Committer::FinishSnapshotWrites() {
  std::vector<absl::Status> failures;
  {
    MutexLock lock(&written_mu_);
    failures.swap(write_failures_);
  }
  for (const absl::Status& failure : failures) {
    metrics_->snapshot_failures().Increment();
    Log(absl::StrCat("local snapshot file (the snapshots topic has it): ", failure.message()));
  }
}

}  // namespace ratingd
