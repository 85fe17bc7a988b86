// Daemon: the transactional consume-transform-produce loop (docs/ARCHITECTURE.md §4).
// Everything produced for the records read since the last commit, the due snapshots and
// the consumer offsets commit together; an abortable failure aborts and rolls the state
// back to the last commit (the partitions are restored again); a fatal one stops the
// daemon, which exits non-zero for its supervisor to restart it.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon/kafka/produce_record.h"
#include "daemon/ratingd/daemon.h"
#include "daemon/ratingd/log.h"
#include "daemon/ratingd/snapshot_chunks.h"

namespace ratingd {

Daemon::TxnOutcome Daemon::TxnCall(const char* what, const std::function<RdKafka::Error*()>& call) {
  for (int attempt = 1;; ++attempt) {
    std::unique_ptr<RdKafka::Error> error(call());
    if (!error) return TxnOutcome::kOk;
    metrics_->KafkaError(error->name()).Increment();
    if (error->is_fatal()) {
      fatal_ = absl::InternalError(absl::StrCat(what, ": fatal: ", error->str(),
                                                " (fenced by an instance with the same "
                                                "--transactional-id, or a broker error)"));
      Log(std::string(fatal_.message()));
      return TxnOutcome::kFatal;
    }
    if (error->txn_requires_abort()) {
      Log(absl::StrCat(what, ": ", error->str(), ": aborting the transaction"));
      return TxnOutcome::kAborted;
    }
    if (!error->is_retriable()) {
      fatal_ = absl::InternalError(absl::StrCat(what, ": ", error->str()));
      Log(std::string(fatal_.message()));
      return TxnOutcome::kFatal;
    }
    // Retriable (typically a timeout while the broker is away): try again, keep the
    // process observable meanwhile.
    if (attempt == 1 || attempt % 10 == 0) {
      Log(absl::StrCat(what, ": ", error->str(), " (attempt ", attempt, "; retrying)"));
    }
    producer_->poll(100);
    if (queries_.pending()) ServeQueries();
    UpdateReadiness();
  }
}

void Daemon::BeginTransaction() {
  if (txn_open_ || !fatal_.ok()) return;
  if (TxnCall("begin_transaction", [this] { return producer_->begin_transaction(); }) ==
      TxnOutcome::kOk) {
    txn_open_ = true;
    txn_dirty_ = false;
    txn_records_ = 0;
    txn_started_ = absl::Now();
  }
}

void Daemon::ProduceSnapshots(std::vector<PendingFile>* files) {
  last_snapshot_ = absl::Now();
  for (const auto& [p, state] : partitions_) {
    if (state.next_offset < state.replay_until) continue;  // not at a committed point yet
    auto last = snapshot_offset_.find(p);
    if (last != snapshot_offset_.end() && last->second == state.next_offset) continue;
    const auto start = std::chrono::steady_clock::now();
    v1::Snapshot snapshot = state.ToSnapshot(fingerprint_);
    snapshot.set_group(config_.group);
    snapshot.set_written_unix_ms(absl::ToUnixMillis(absl::Now()));
    auto bytes = std::make_shared<std::string>();
    snapshot.SerializeToString(bytes.get());
    for (ChunkRecord& chunk : SplitSnapshot(config_.group, config_.results_topic, p,
                                            state.next_offset, next_snapshot_id_++, *bytes)) {
      absl::Status s =
          Produce(*producer_, config_.snapshots_topic, chunk.key, chunk.value, nullptr, nullptr, p);
      if (!s.ok()) Log(std::string(s.message()));  // the commit fails and rolls back
    }
    txn_dirty_ = true;
    metrics_->snapshot_duration().Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    metrics_->SnapshotSize(p).Set(static_cast<double>(bytes->size()));
    files->push_back({p, state.next_offset, std::move(bytes)});
  }
}

bool Daemon::CommitTransaction(bool with_snapshots) {
  if (!txn_open_ || !fatal_.ok()) return false;
  // Every ml solve scheduled by this transaction's results publishes its delta in it.
  solver_->WaitIdle();
  DrainMlSolutions();
  std::vector<PendingFile> files;
  if (with_snapshots) ProduceSnapshots(&files);
  std::vector<RdKafka::TopicPartition*> offsets;
  for (const auto& [p, state] : partitions_) {
    if (state.next_offset < state.replay_until) continue;  // never move a commit backwards
    auto c = committed_.find(p);
    if (c != committed_.end() && c->second == state.next_offset) continue;
    if (state.next_offset <= 0) continue;
    offsets.push_back(RdKafka::TopicPartition::create(config_.results_topic, p, state.next_offset));
  }
  if (!txn_dirty_ && offsets.empty()) {
    txn_started_ = absl::Now();  // nothing to commit; the transaction stays open
    txn_records_ = 0;
    metrics_->last_commit().Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
    if (with_snapshots) {  // every caught-up partition's committed snapshot is current
      metrics_->last_snapshot().Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
    }
    return true;
  }
  if (config_.fault_abort_every > 0 && ++commits_attempted_ % config_.fault_abort_every == 0 &&
      !stopping_) {
    // Abort only once the coordinator holds the transaction: an EndTxn(abort) racing an
    // AddPartitionsToTxn that is still being retried (most likely CONCURRENT_TRANSACTIONS
    // right after the previous commit) gets INVALID_TXN_STATE, which librdkafka makes fatal
    // (confluentinc/librdkafka#4849). Every delivered record implies a registered partition.
    if (producer_->flush(10000) == RdKafka::ERR_NO_ERROR) {
      Log("fault injection: aborting this transaction (RATINGD_FAULT_ABORT_EVERY)");
      RdKafka::TopicPartition::destroy(offsets);
      AbortAndRollback();
      return false;
    }
    Log("fault injection: output not delivered within 10 s; committing instead");
  }
  const auto start = std::chrono::steady_clock::now();
  TxnOutcome outcome = TxnOutcome::kOk;
  if (!offsets.empty()) {
    std::unique_ptr<RdKafka::ConsumerGroupMetadata> group(consumer_->groupMetadata());
    outcome = TxnCall("send_offsets_to_transaction", [&] {
      return producer_->send_offsets_to_transaction(offsets, group.get(), 10000);
    });
  }
  if (outcome == TxnOutcome::kOk) {
    outcome =
        TxnCall("commit_transaction", [this] { return producer_->commit_transaction(10000); });
  }
  std::vector<std::pair<int32_t, int64_t>> sent;
  for (const RdKafka::TopicPartition* tp : offsets)
    sent.emplace_back(tp->partition(), tp->offset());
  RdKafka::TopicPartition::destroy(offsets);
  if (outcome == TxnOutcome::kAborted) {
    AbortAndRollback();
    return false;
  }
  if (outcome == TxnOutcome::kFatal) return false;
  txn_open_ = false;
  metrics_->Transactions("committed").Increment();
  metrics_->last_commit().Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
  metrics_->commit_duration().Observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  for (const auto& [p, offset] : sent) committed_[p] = offset;
  if (with_snapshots) {
    metrics_->last_snapshot().Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
  }
  // The committed snapshots also go to local files: a restart on this host whose
  // committed offset is still the file's skips reading the snapshots topic.
  for (PendingFile& f : files) {
    snapshot_offset_[f.partition] = f.next_offset;
    const std::string path = SnapshotPath(config_.snapshot_dir, config_.results_topic, f.partition);
    writer_->Submit([this, path, bytes = std::move(f.bytes)] {
      absl::StatusOr<size_t> written = WriteSnapshotBytes(path, *bytes);
      std::lock_guard<std::mutex> lock(written_mu_);
      written_.push_back(Written{std::move(written)});
    });
  }
  BeginTransaction();
  return true;
}

void Daemon::AbortAndRollback() {
  if (TxnCall("abort_transaction", [this] { return producer_->abort_transaction(10000); }) !=
      TxnOutcome::kOk) {
    fatal_.Update(absl::InternalError("the transaction could not be aborted"));
    return;
  }
  txn_open_ = false;
  metrics_->Transactions("aborted").Increment();
  if (revoking_) {
    BeginTransaction();
    return;
  }
  // Nothing of the aborted transaction is visible; forget what it changed by restoring
  // every partition again from its last committed point (snapshot + replay).
  solver_->WaitIdle();
  std::vector<int32_t> held;
  for (const auto& [p, state] : partitions_) held.push_back(p);
  ready_ = false;
  metrics_->partitions_restoring().Set(static_cast<double>(held.size()));
  for (int32_t p : held) {
    DropPartition(p);
    if (!RestoreWithRetry(p)) return;
    const int64_t next = partitions_.at(p).next_offset;
    RdKafka::TopicPartition* tp = RdKafka::TopicPartition::create(
        config_.results_topic, p, next > 0 ? next : RdKafka::Topic::OFFSET_BEGINNING);
    const RdKafka::ErrorCode err = consumer_->seek(*tp, 10000);
    delete tp;
    if (err != RdKafka::ERR_NO_ERROR) {
      fatal_ = absl::InternalError(
          absl::StrCat("partition ", p, ": rewind after the abort: ", RdKafka::err2str(err)));
      return;
    }
  }
  dirty_.clear();
  Log(absl::StrCat("rolled back: ", held.size(), " partitions restore from their last commit"));
  BeginTransaction();
}

void Daemon::FinishSnapshotWrites() {
  std::vector<Written> written;
  {
    std::lock_guard<std::mutex> lock(written_mu_);
    written.swap(written_);
  }
  for (const Written& w : written) {
    if (!w.bytes.ok()) {
      metrics_->snapshot_failures().Increment();
      Log(absl::StrCat("local snapshot file (the snapshots topic has it): ",
                       w.bytes.status().message()));
    }
  }
}

}  // namespace ratingd
