// Any instance answers any pool (docs/CONTRACTS.md §3.2): a consumer of the compacted
// leaderboards topic (read_committed, every partition from the beginning, never in a group)
// on a thread of its own, folding its records into RemoteBoards (remote_boards.h) and
// publishing them to the view store at most every kPublishEvery. The HTTP threads answer the
// pools this instance does not own from them. Until it has read every partition to its end
// once, the instance is not ready (ViewStore::remote_caught_up).
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "daemon/ratingd/daemon_config.h"
#include "daemon/ratingd/view_store.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

class LeaderboardCache {
 public:
  static constexpr absl::Duration kPublishEvery = absl::Milliseconds(100);

  // Creates the consumer (the topic must exist) and starts reading. `views` must outlive it.
  static absl::StatusOr<std::unique_ptr<LeaderboardCache>> Start(const DaemonConfig& config,
                                                                 ViewStore* views);
  // Stops the thread, then closes the consumer.
  ~LeaderboardCache();

 private:
  LeaderboardCache() = default;
  void Run();

  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  ViewStore* views_ = nullptr;
  int partitions_ = 0;  // of the leaderboards topic, all assigned
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last: started once the rest is set
};

}  // namespace ratingd
