#include "ratings/game_counts.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace ratings {

void GameCounts::Resize(size_t n) {
  if (n <= games_.size()) return;
  games_.resize(n, 0.0);
  points_.resize(n, 0.0);
  results_.resize(n, 0);
}

void GameCounts::Update(const IndexedResult& result) {
  const size_t k = result.size();
  const auto add = [&](size_t i, size_t below, size_t tied) {
    games_[result.agents[i]] += result.weight * static_cast<double>(k - 1);
    points_[result.agents[i]] +=
        result.weight * (static_cast<double>(below) + 0.5 * static_cast<double>(tied));
    ++results_[result.agents[i]];
  };
  // Agents below and tied with each standing: by pairs for the usual few agents (no
  // sorting, no buffer), by binary search in the sorted ranks for many.
  if (k <= kPairwiseMax) {
    for (size_t i = 0; i < k; ++i) {
      size_t below = 0, tied = 0;
      for (size_t j = 0; j < k; ++j) {
        below += result.ranks[j] > result.ranks[i];
        tied += j != i && result.ranks[j] == result.ranks[i];
      }
      add(i, below, tied);
    }
    return;
  }
  sorted_ranks_.assign(result.ranks.begin(), result.ranks.end());
  std::sort(sorted_ranks_.begin(), sorted_ranks_.end());
  for (size_t i = 0; i < k; ++i) {
    const auto [first, last] =
        std::equal_range(sorted_ranks_.begin(), sorted_ranks_.end(), result.ranks[i]);
    add(i, static_cast<size_t>(sorted_ranks_.end() - last), static_cast<size_t>(last - first - 1));
  }
}

absl::Status GameCounts::Restore(std::vector<double> games, std::vector<double> points) {
  if (games.size() != points.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("games: ", games.size(), " game counts but ", points.size(), " points"));
  }
  for (size_t i = 0; i < games.size(); ++i) {
    if (!std::isfinite(games[i]) || !std::isfinite(points[i]) || games[i] < 0 || points[i] < 0 ||
        points[i] > games[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("games: agent #", i, " has ", points[i], " points in ", games[i], " games"));
    }
  }
  games_ = std::move(games);
  points_ = std::move(points);
  results_.assign(games_.size(), 0);  // RestoreResults sets them, if the state has them
  return absl::OkStatus();
}

absl::Status GameCounts::RestoreResults(std::vector<uint64_t> results) {
  if (results.size() != games_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("results: ", results.size(), " result counts for ", games_.size(), " agents"));
  }
  results_ = std::move(results);
  return absl::OkStatus();
}

}  // namespace ratings
