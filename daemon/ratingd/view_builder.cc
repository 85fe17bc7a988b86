#include "daemon/ratingd/view_builder.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "google/protobuf/util/time_util.h"

namespace ratingd {
namespace {

// `views`' held partitions and order, from the registry: by partition, then pool name. A
// partition at its committed point lists its pools that have a view; a replaying one, every
// view it has (pools created since its snapshot are not back in the registry yet).
void Index(const PartitionRegistry& registry, Views& views) {
  views.held = registry.Held();
  views.in_order.clear();
  for (const auto& [partition, state] : registry.partitions()) {
    if (state.replaying()) {
      const size_t first = views.in_order.size();
      for (const auto& [name, view] : views.pools) {
        if (view->partition == partition) views.in_order.push_back(view.get());
      }
      std::sort(views.in_order.begin() + static_cast<std::ptrdiff_t>(first), views.in_order.end(),
                [](const PoolView* a, const PoolView* b) { return a->pool < b->pool; });
      continue;
    }
    for (const auto& [name, live] : state.pools) {
      if (auto view = views.pools.find(name); view != views.pools.end()) {
        views.in_order.push_back(view->second.get());
      }
    }
  }
}

// Whether `views` hold a view of a pool of `partition`.
bool HasPartition(const Views& views, int32_t partition) {
  return std::any_of(views.pools.begin(), views.pools.end(),
                     [&](const auto& entry) { return entry.second->partition == partition; });
}

}  // namespace

void ViewBuilder::Prepare(const PartitionRegistry& registry, absl::Time committed_at) {
  const std::shared_ptr<const Views> published = store_->Get();
  auto views = std::make_shared<Views>();
  for (const auto& [partition, state] : registry.partitions()) {
    if (state.replaying()) continue;  // its views stay: below
    for (const auto& [name, live] : state.pools) {
      const auto previous = published->pools.find(name);
      if (previous == published->pools.end()) {
        views->pools[name] = Build(*live, partition, committed_at, nullptr);
      } else if (previous->second->partition != partition || Changed(name)) {
        views->pools[name] = Build(*live, partition, committed_at, previous->second.get());
      } else {
        views->pools[name] = previous->second;  // unchanged: the same view, shared
      }
    }
  }
  if (registry.replaying() > 0) {
    for (const auto& [name, view] : published->pools) {
      const PartitionState* state = registry.Find(view->partition);
      if (state != nullptr && state->replaying()) views->pools[name] = view;
    }
  }
  Index(registry, *views);
  applied_.clear();
  solved_.clear();
  pending_ = std::move(views);
}

void ViewBuilder::PublishRestored(const PartitionRegistry& registry, int32_t partition,
                                  absl::Time now) {
  // A rollback: the published views are the partition's last commit, and stay.
  if (HasPartition(*store_->Get(), partition)) return;
  PublishPartition(registry, partition, now);
}

void ViewBuilder::PublishPartition(const PartitionRegistry& registry, int32_t partition,
                                   absl::Time now) {
  const PartitionState* state = registry.Find(partition);
  auto views = std::make_shared<Views>(*store_->Get());
  if (state != nullptr) {
    for (const auto& [name, live] : state->pools) {
      views->pools[name] = Build(*live, partition, now, nullptr);
    }
  }
  Index(registry, *views);
  store_->Publish(std::move(views));
}

void ViewBuilder::PublishHeld(const PartitionRegistry& registry) {
  auto views = std::make_shared<Views>(*store_->Get());
  absl::erase_if(views->pools, [&](const auto& entry) {
    return registry.Find(entry.second->partition) == nullptr;
  });
  Index(registry, *views);
  store_->Publish(std::move(views));
}

std::shared_ptr<const PoolView> ViewBuilder::Build(const LivePool& live, int32_t partition,
                                                   absl::Time committed_at,
                                                   const PoolView* previous) const {
  auto view = std::make_shared<PoolView>();
  view->pool = live.name();
  view->partition = partition;
  view->agents = static_cast<uint32_t>(live.pool().index().size());
  view->results = live.pool().results();
  view->committed_at = committed_at;
  const ratings::Pool& pool = live.pool();
  if (pool.ml() != nullptr && pool.ml()->refused()) {
    view->ml_refused = true;
    view->ml_max_agents = static_cast<uint32_t>(pool.ml()->options().max_agents);
  }
  if (previous != nullptr && previous->partition == partition && !applied_.contains(live.name())) {
    view->counts = previous->counts;
  } else {
    view->counts = std::make_shared<const PoolView::Counts>(
        PoolView::Counts{pool.index().names(), pool.games().games(), pool.games().points()});
  }
  for (const ratings::Model model : ratings::kModels) {
    if (!ratings::ModelOn(pool.options(), model)) continue;
    std::shared_ptr<const v1::Leaderboard>& board = view->boards[static_cast<size_t>(model)];
    if (previous != nullptr && previous->partition == partition &&
        previous->board(model) != nullptr && !Moved(live.name(), model)) {
      board = previous->boards[static_cast<size_t>(model)];  // unchanged: shared
      view->histories[static_cast<size_t>(model)] = previous->histories[static_cast<size_t>(model)];
      continue;
    }
    auto built = std::make_shared<v1::Leaderboard>(live.Leaderboard(model));
    built->set_partition(partition);
    *built->mutable_committed_at() =
        google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(committed_at));
    board = std::move(built);
    if (const ratings::PoolHistory* history = live.history(model)) {
      view->histories[static_cast<size_t>(model)] = HistoryView(*history);
    }
  }
  return view;
}

std::shared_ptr<const std::vector<PoolView::AgentPoints>> ViewBuilder::HistoryView(
    const ratings::PoolHistory& history) {
  auto agents = std::make_shared<std::vector<PoolView::AgentPoints>>(history.size());
  for (ratings::AgentId a = 0; a < history.size(); ++a) (*agents)[a] = history.Share(a);
  return agents;
}

void ViewBuilder::Commit() {
  if (pending_ != nullptr) store_->Publish(std::move(pending_));
  pending_.reset();
}

void ViewBuilder::Abort() {
  pending_.reset();
  applied_.clear();
  solved_.clear();
}

}  // namespace ratingd
