#include "daemon/ratingd/remote_boards.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/time_util.h"
#include "ratings/model.h"

namespace ratingd {

absl::Status RemoteBoardsBuilder::Add(int32_t partition, absl::string_view key,
                                      std::optional<absl::string_view> value) {
  if (!value.has_value()) {
    const size_t slash = key.rfind('/');
    const std::optional<ratings::Model> model = slash == absl::string_view::npos
                                                    ? std::nullopt
                                                    : ratings::ParseModel(key.substr(slash + 1));
    if (!model.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("tombstone key '", key, "' names no model"));
    }
    const std::pair<std::string, ratings::Model> id(key.substr(0, slash), *model);
    const auto source = sources_.find(id);
    if (source == sources_.end() || source->second != partition) return absl::OkStatus();
    sources_.erase(source);
    const auto pool = boards_.pools.find(id.first);
    pool->second[static_cast<size_t>(*model)].reset();
    if (pool->second == RemoteBoards::Boards{}) boards_.pools.erase(pool);
    changed_ = true;
    return absl::OkStatus();
  }
  auto board = std::make_shared<v1::Leaderboard>();
  if (!board->ParseFromArray(value->data(), static_cast<int>(value->size()))) {
    return absl::InvalidArgumentError(absl::StrCat("record '", key, "' is not a Leaderboard"));
  }
  const std::optional<ratings::Model> model = ratings::ParseModel(board->model());
  if (!model.has_value() || board->pool().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "record '", key, "' names model '", board->model(), "' of pool '", board->pool(), "'"));
  }
  std::pair<std::string, ratings::Model> id(board->pool(), *model);
  auto [source, first] = sources_.try_emplace(id, partition);
  std::shared_ptr<const v1::Leaderboard>& held =
      boards_.pools[id.first][static_cast<size_t>(*model)];
  if (!first && source->second != partition && held->committed_at() > board->committed_at()) {
    return absl::OkStatus();  // an older record left in another partition
  }
  source->second = partition;
  held = std::move(board);
  changed_ = true;
  return absl::OkStatus();
}

std::shared_ptr<const RemoteBoards> RemoteBoardsBuilder::TakeChanged() {
  if (!changed_) return nullptr;
  changed_ = false;
  return std::make_shared<const RemoteBoards>(boards_);
}

}  // namespace ratingd
