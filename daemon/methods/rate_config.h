// What one `ratingctl rate` run needs (docs/CONTRACTS.md §2): the method, its input and its
// parameters. A leaf header: the registry, the readers and every method's runner take it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "ratings/io/read_results.h"
#include "ratings/progress.h"

namespace ratingd {

struct RateConfig {
  std::string method = {};                         // a name of the registry (method_registry.h)
  std::string input = {};                          // path of the results file
  std::optional<ratings::io::Format> format = {};  // inferred from the extension if unset
  std::vector<std::string> params = {};            // "key=value", see param_table.h
  uint64_t seed = 0;                               // batch sampling; echoed in extra.seed
  std::string pool = {};                           // JSONL: rate only this pool
  // Online models: with replicas (2..256), each entry also gets games, provisional and
  // (elo, sco) the interval fields, as ratingd publishes them for this pool
  // (docs/MODELS.md §5.6). 0: none of them.
  uint32_t bootstrap_replicas = 0;
  uint64_t provisional_games = 20;
  // glicko2: an agent whose reported rd is above this is provisional (as lichess, 110).
  double provisional_rd = 110;
  // Online elo, sco and glicko2: write every agent's rating history, thinned to at most
  // history_points points per agent (docs/MODELS.md §11), to this CSV file; "" = none.
  std::string history = {};
  size_t history_points = 128;
  // Online models: leave out agents whose last timed result is more than this before the
  // input's latest event time (docs/MODELS.md §12); infinite = off. With include_inactive
  // they are listed after the ranked agents, marked `inactive`.
  absl::Duration inactive_after = absl::InfiniteDuration();
  bool include_inactive = false;
  ratings::ProgressFn progress = {};  // batch methods report progress here
};

}  // namespace ratingd
