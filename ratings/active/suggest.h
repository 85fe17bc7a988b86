// Suggestions of the next matches of a pool (docs/ACTIVE.md §6): the agent selection of
// [AE] Table 1 turned into a read-only query. Pure and seeded: the same inputs, sequence and
// seed give the same pairs on every platform (ratings/seeded_draws.h). ratingd's
// /v1/pools/{pool}/suggest and `ratingctl suggest` both call it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ratings::active {

enum class SuggestStrategy { kUniform, kUcb, kMl };

// "uniform", "ucb", "ml".
absl::string_view SuggestStrategyName(SuggestStrategy strategy);
std::optional<SuggestStrategy> ParseSuggestStrategy(absl::string_view name);

// Larger n are clamped to this.
inline constexpr size_t kMaxSuggestions = 1000;
// C of BASICUCB: √2 ([AE] §4.1.1 with Δs = 1, the range of a win rate).
inline constexpr double kUcbC = 1.4142135623730951;

// A suggested match: agents a and b (in that order) and `probability` (see each strategy).
struct SuggestedPair {
  std::string a;
  std::string b;
  double probability = 0.0;
};

// The generator of one answer: std::mt19937_64 seeded with
// SplitMix64(SplitMix64(sequence) XOR seed), `sequence` being the pool's result count the
// answer is computed from.
std::mt19937_64 SuggestRng(uint64_t sequence, uint64_t seed);

// `n` independent draws of two distinct agents, each uniform (repeats possible). probability
// = 1/(m(m-1)), the chance of this ordered pair in one draw (the ml formula with
// exploration 1). Fewer than 2 agents: no pairs.
std::vector<SuggestedPair> SuggestUniform(absl::Span<const std::string> agents, size_t n,
                                          std::mt19937_64& rng);

// UCB(a) = s̄_a + C·sqrt(max(0, log T_total) / T_a) with s̄_a = points_a / games_a,
// T_a = games_a, T_total = Σ games (every agent's games: [AE]'s 2T), and +∞ when
// games_a = 0. Exposed for tests.
double UcbScore(double games, double points, double total_games);

// The n pairs with the highest UCB(a) + UCB(b), deterministic: agents are listed by UCB
// descending, then name ascending; a pair is (a, b) with a listed before b; pairs are
// ranked by UCB(a) + UCB(b) descending (+∞ ties with +∞), then a's place, then b's place in
// that list. So the first pair is BASICUCB's choice. Each pair appears once; fewer than n
// when there are fewer pairs. probability = 1 (nothing is drawn). `games` and `points` are
// by agent, as `agents`.
std::vector<SuggestedPair> SuggestUcb(absl::Span<const std::string> agents,
                                      absl::Span<const double> games,
                                      absl::Span<const double> points, size_t n);

// [AE] §4.2.2 with Table 1's exploration: σ = `lottery` (by agent, as `agents`; normalised
// here; all zero counts as uniform), σ' = ε/m + (1-ε)σ. Each of the n draws takes a ~ σ',
// then b ~ σ' redrawn until b != a (drawn directly from σ' restricted to the others);
// probability = σ'(a)σ'(b)/(1-σ'(a)). When σ' puts all its mass on a (ε = 0 and a point
// lottery), b is uniform among the others and probability = σ'(a)/(m-1). Fewer than 2
// agents: no pairs. Precondition: 0 <= exploration <= 1, lottery.size() == agents.size().
std::vector<SuggestedPair> SuggestMl(absl::Span<const std::string> agents,
                                     absl::Span<const double> lottery, double exploration, size_t n,
                                     std::mt19937_64& rng);

// InvalidArgument naming the problem unless 0 <= exploration <= 1.
absl::Status CheckExploration(double exploration);

}  // namespace ratings::active
