#include "tests/fakes/fake_broker.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "daemon/ratingd/snapshot_chunks.h"

namespace ratingd::testing {

int64_t FakeBroker::Append(int32_t partition, std::optional<std::string> key, std::string value,
                           int64_t timestamp_ms) {
  std::vector<Input>& log = results.at(static_cast<size_t>(partition));
  log.push_back({std::move(key), std::move(value), timestamp_ms});
  return static_cast<int64_t>(log.size()) - 1;
}

std::vector<v1::RankingDelta> FakeBroker::Deltas() const {
  std::vector<v1::RankingDelta> out;
  for (const FakeRecord& r : deltas) out.emplace_back().ParseFromString(r.value);
  return out;
}

std::vector<v1::Leaderboard> FakeBroker::Leaderboards() const {
  std::vector<v1::Leaderboard> out;
  for (const FakeRecord& r : leaderboards) out.emplace_back().ParseFromString(r.value);
  return out;
}

std::map<std::string, v1::Leaderboard> FakeBroker::LastLeaderboards() const {
  std::map<std::string, v1::Leaderboard> out;
  for (const FakeRecord& r : leaderboards) out[r.key].ParseFromString(r.value);
  return out;
}

std::map<std::string, v1::RankingDelta> FakeBroker::LastDeltas() const {
  std::map<std::string, v1::RankingDelta> out;
  for (const FakeRecord& r : deltas) out[r.key].ParseFromString(r.value);
  return out;
}

absl::Status FakeOutputSink::CheckOpen() const {
  return open_ ? absl::OkStatus() : absl::FailedPreconditionError("no transaction is open");
}

absl::Status FakeOutputSink::ProduceDelta(int32_t partition, const std::string& key,
                                          const std::string& value, int64_t) {
  deltas_.push_back({key, value, {}, false, partition});
  ++delta_records_;
  return CheckOpen();
}

absl::Status FakeOutputSink::ProduceDeltaBatch(DeltaBatchRecord&& batch) {
  v1::RankingDeltaBatch parsed;
  if (!parsed.ParseFromString(batch.value)) {
    return absl::InvalidArgumentError("not a RankingDeltaBatch");
  }
  for (const v1::RankingDelta& d : parsed.deltas()) {
    deltas_.push_back({batch.key, d.SerializeAsString(), {}, false, batch.partition});
  }
  ++delta_records_;
  return CheckOpen();
}

absl::Status FakeOutputSink::ProduceLeaderboard(int32_t partition, const std::string& key,
                                                const std::string& value) {
  leaderboards_.push_back({key, value, {}, false, partition});
  return CheckOpen();
}

absl::Status FakeOutputSink::ProduceDeadLetter(const DeadLetterRecord& letter) {
  dead_letters_.push_back({letter.key, letter.value, letter.headers});
  return CheckOpen();
}

absl::Status FakeOutputSink::ProduceSnapshotRecord(int32_t partition, const std::string& key,
                                                   const std::string* value) {
  snapshots_[partition].push_back({key, value == nullptr ? "" : *value, {}, value == nullptr});
  return CheckOpen();
}

absl::Status FakeOutputSink::BeginTransaction() {
  if (open_) return absl::FailedPreconditionError("a transaction is open already");
  open_ = true;
  return absl::OkStatus();
}

size_t FakeOutputSink::pending() const {
  size_t n = deltas_.size() + leaderboards_.size() + dead_letters_.size();
  for (const auto& [p, chunks] : snapshots_) n += chunks.size();
  return n;
}

absl::Status FakeOutputSink::Commit(const std::vector<PartitionOffset>& offsets) {
  if (absl::Status s = CheckOpen(); !s.ok()) return s;
  if (fail_commits_ > 0) {
    --fail_commits_;
    return absl::AbortedError("commit_transaction: the coordinator aborted it (fake)");
  }
  const auto append = [](std::vector<FakeRecord>& to, std::vector<FakeRecord>& from) {
    to.insert(to.end(), from.begin(), from.end());
    from.clear();
  };
  append(broker_->deltas, deltas_);
  broker_->delta_records += delta_records_;
  delta_records_ = 0;
  append(broker_->leaderboards, leaderboards_);
  append(broker_->dead_letters, dead_letters_);
  for (auto& [p, chunks] : snapshots_) append(broker_->snapshots[p], chunks);
  for (const PartitionOffset& o : offsets) broker_->committed_offsets[o.partition] = o.next_offset;
  ++broker_->commits;
  open_ = false;
  return absl::OkStatus();
}

absl::Status FakeOutputSink::Abort() {
  if (absl::Status s = CheckOpen(); !s.ok()) return s;
  deltas_.clear();
  delta_records_ = 0;
  leaderboards_.clear();
  dead_letters_.clear();
  snapshots_.clear();
  ++broker_->aborts;
  open_ = false;
  return absl::OkStatus();
}

void FakeBroker::CompactSnapshots() {
  for (auto& [p, records] : snapshots) {
    std::map<std::string, size_t> last;
    for (size_t i = 0; i < records.size(); ++i) last[records[i].key] = i;
    std::vector<FakeRecord> kept;
    for (size_t i = 0; i < records.size(); ++i) {
      if (last[records[i].key] == i && !records[i].tombstone) kept.push_back(records[i]);
    }
    records = std::move(kept);
  }
}

absl::StatusOr<std::optional<v1::Snapshot>> FakeSnapshotSource::Latest(int32_t partition) {
  SnapshotAssembler assembler(group_, topic_, partition);
  auto it = broker_->snapshots.find(partition);
  if (it == broker_->snapshots.end()) return std::nullopt;
  for (size_t i = 0; i < it->second.size(); ++i) {
    const FakeRecord& r = it->second[i];
    std::optional<absl::string_view> value;
    if (!r.tombstone) value = r.value;
    absl::Status s = assembler.Add(r.key, value, absl::StrCat("snapshots/", partition, "@", i));
    if (!s.ok()) return s;
  }
  return assembler.Latest();
}

absl::StatusOr<int64_t> FakeConsumer::Committed(int32_t partition) {
  auto it = broker_->committed_offsets.find(partition);
  return it == broker_->committed_offsets.end() ? -1 : it->second;
}

absl::Status FakeConsumer::Seek(int32_t partition, int64_t offset) {
  positions_[partition] = offset;
  return absl::OkStatus();
}

std::optional<WatermarkOffsets> FakeConsumer::Watermarks(int32_t partition) {
  return WatermarkOffsets{0, static_cast<int64_t>(broker_->results.at(partition).size())};
}

void FakeConsumer::Assign(const std::vector<int32_t>& partitions) {
  for (const PartitionOffset& start : pipeline_->Assign(partitions)) {
    positions_[start.partition] = start.next_offset;
  }
}

void FakeConsumer::Revoke(const std::vector<int32_t>& partitions) {
  pipeline_->Revoke(partitions);
  for (int32_t p : partitions) positions_.erase(p);
}

size_t FakeConsumer::Poll(size_t max) {
  size_t delivered = 0;
  bool batch_over = false;  // as the Daemon's loop: a commit is wanted after a record
  for (auto& [p, position] : positions_) {
    const std::vector<FakeBroker::Input>& log = broker_->results.at(p);
    while (!batch_over && delivered < max && position < static_cast<int64_t>(log.size())) {
      const FakeBroker::Input& input = log[static_cast<size_t>(position)];
      ConsumedRecord record;
      record.partition = p;
      record.offset = position++;
      if (input.key.has_value()) record.key = *input.key;
      record.value = input.value;
      record.timestamp_ms = input.timestamp_ms;
      pipeline_->Process(record);
      ++delivered;
      batch_over = pipeline_->CommitWanted();
    }
  }
  // As the Daemon's loop, if asked: the input is idle when the batch ended for want of
  // records.
  pipeline_->Tick(/*input_idle=*/report_idle_ && !batch_over && delivered < max);
  // A snapshot round the Tick began is serialised on another thread; the next Tick produces
  // it. Waiting for it here makes that next Tick's transaction the one that carries it.
  pipeline_->WaitSnapshotsSerialized();
  return delivered;
}

void FakeConsumer::PollAll() {
  while (Poll() > 0) {
  }
}

}  // namespace ratingd::testing
