// Independent pairwise outcomes ([EU] §4, Eq. 3–6, and App. A, Eq. 8; docs/MODELS.md §8):
// for each listed pair a fixed number of games, each a draw with probability `tie` and
// otherwise won by the pair's first agent with probability p, every pair's games shuffled
// together into one sequence (the paper's baseline sequence).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratings/result.h"

namespace ratings {

struct BernoulliPair {
  std::string first = {};
  std::string second = {};
  double p = 0.5;  // P(first beats second | not a draw)
};

// "A>B:0.75,B>C:0.51" -> {{A, B, 0.75}, {B, C, 0.51}}. InvalidArgument naming the bad
// entry: no '>' or ':', an empty name, the same name twice, p not a number in [0, 1], a
// pair listed twice (in either order).
absl::StatusOr<std::vector<BernoulliPair>> ParseBernoulliPairs(absl::string_view text);

struct PairwiseBernoulliOptions {
  std::vector<BernoulliPair> pairs = {};
  int64_t games = 1000;  // per pair, >= 1 ([EU] §5: N_games = 1000)
  double tie = 0.0;      // P(draw) in [0, 1)
  uint64_t seed = 0;
};

// One game: agents by id (PairwiseBernoulli::names), outcome for `first`.
struct PairwiseGame {
  AgentId first = 0;
  AgentId second = 0;
  enum class Outcome { kFirstWins, kSecondWins, kDraw } outcome = Outcome::kDraw;
};

struct PairwiseBernoulli {
  std::vector<std::string> names = {};   // agent id -> name, in order of first mention
  std::vector<PairwiseGame> games = {};  // pairs.size() * games, shuffled
};

// The games, pair by pair in the listed order (per game one uniform draw for the draw,
// then one for the winner), then one Fisher–Yates shuffle of all of them; std::mt19937_64
// with ratings/seeded_draws.h, so a seed gives the same file everywhere. InvalidArgument
// for no pairs, games < 1, tie outside [0, 1) or a bad pair.
absl::StatusOr<PairwiseBernoulli> GeneratePairwiseBernoulli(
    const PairwiseBernoulliOptions& options);

}  // namespace ratings
