#include "daemon/ratingd/remote_boards.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ratings/model.h"

namespace ratingd {

absl::Status RemoteBoardsBuilder::Add(absl::string_view key,
                                      std::optional<absl::string_view> value) {
  if (!value.has_value()) {
    const size_t slash = key.rfind('/');
    const std::optional<ratings::Model> model = slash == absl::string_view::npos
                                                    ? std::nullopt
                                                    : ratings::ParseModel(key.substr(slash + 1));
    if (!model.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("tombstone key '", key, "' names no model"));
    }
    const auto pool = boards_.pools.find(key.substr(0, slash));
    if (pool == boards_.pools.end()) return absl::OkStatus();
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
  std::string pool = board->pool();
  boards_.pools[pool][static_cast<size_t>(*model)] = std::move(board);
  changed_ = true;
  return absl::OkStatus();
}

std::shared_ptr<const RemoteBoards> RemoteBoardsBuilder::TakeChanged() {
  if (!changed_) return nullptr;
  changed_ = false;
  return std::make_shared<const RemoteBoards>(boards_);
}

}  // namespace ratingd
