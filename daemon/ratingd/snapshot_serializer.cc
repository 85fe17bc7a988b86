#include "daemon/ratingd/snapshot_serializer.h"

#include <utility>

namespace ratingd {

SerializedSnapshot SerializeSnapshot(CapturedSnapshot captured, const std::string& group,
                                     const std::string& topic) {
  SerializedSnapshot out;
  out.partition = captured.partition;
  out.incarnation = captured.incarnation;
  out.next_offset = captured.next_offset;
  auto bytes = std::make_shared<std::string>(SerializeCapture(captured.capture));
  out.chunks = SplitSnapshot(group, topic, captured.partition, captured.next_offset,
                             captured.snapshot_id, *bytes);
  out.bytes = std::move(bytes);
  out.dedup = std::move(captured.dedup);
  out.sealed = std::move(captured.sealed);
  out.capture_seconds = captured.capture_seconds;
  return out;
}

void SnapshotSerializer::Submit(std::vector<CapturedSnapshot> round) {
  busy_ = true;
  const uint64_t generation = ++generation_;
  worker_.Submit([this, generation, round = std::move(round)]() mutable {
    std::vector<SerializedSnapshot> done;
    done.reserve(round.size());
    for (CapturedSnapshot& captured : round) {
      done.push_back(SerializeSnapshot(std::move(captured), group_, topic_));
    }
    MutexLock lock(&mu_);
    done_ = std::move(done);
    done_generation_ = generation;
  });
}

std::optional<std::vector<SerializedSnapshot>> SnapshotSerializer::Take(bool wait) {
  if (!busy_) return std::nullopt;
  if (wait) worker_.WaitIdle();
  MutexLock lock(&mu_);
  if (!done_ || done_generation_ != generation_) return std::nullopt;
  busy_ = false;
  return std::exchange(done_, std::nullopt);
}

void SnapshotSerializer::Discard() {
  busy_ = false;
  ++generation_;  // the round's result, when it comes, is not taken
}

}  // namespace ratingd
