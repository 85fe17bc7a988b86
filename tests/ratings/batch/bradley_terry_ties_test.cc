// Ties in the Bradley–Terry fit (elo-bt, docs/MODELS.md §5.1, §9): exactly symmetric agents
// come out of the MM fit equal only up to rounding (their denominators add the same terms in
// a different order), so the ranking compares ratings within the fit's tolerance and then
// by name. Properties checked on random data: relabelling permutes the ratings and the
// order, doubling every count (prior 0) changes nothing, symmetric agents tie by name.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/agent_index.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/ranking.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;

// Strict counts N(a, b) by ordered pair; turned into the sorted PairCount list.
using Counts = std::map<std::pair<AgentId, AgentId>, double>;

std::vector<PairCount> Pairs(const Counts& counts) {
  std::map<std::pair<AgentId, AgentId>, PairCount> by_pair;
  for (const auto& [ab, n] : counts) {
    const auto [a, b] = ab;
    PairCount& p = by_pair[{std::min(a, b), std::max(a, b)}];
    p.a = std::min(a, b);
    p.b = std::max(a, b);
    (a < b ? p.n_ab : p.n_ba) += n;
  }
  std::vector<PairCount> out;
  for (const auto& [ab, p] : by_pair) out.push_back(p);
  return out;  // sorted by (a, b), as the tally lists them
}

AgentIndex Names(const std::vector<std::string>& names) {
  AgentIndex index;
  for (const std::string& n : names) index.Intern(n);
  return index;
}

std::vector<std::string> Order(const std::vector<RankedAgent>& ranked, const AgentIndex& index) {
  std::vector<std::string> out;
  for (const RankedAgent& r : ranked) out.push_back(index.Name(r.id));
  return out;
}

// Agents 0..5 play a random round robin; agent 1 and agent 7 (x and y) have the same
// record against each of them (drawn at random) and split 1:1 with each other, so they are
// exchangeable: every Bradley–Terry fit gives them the same rating exactly, and with the
// fit's tolerance they tie and go by name, whichever name comes first.
TEST(BradleyTerryTiesTest, SymmetricAgentsTieWithinTheToleranceAndGoByName) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> games(0, 4);
  const AgentId x = 1, y = 7;
  const std::vector<AgentId> others = {0, 2, 3, 4, 5, 6};
  int noisy = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Counts counts;
    for (size_t i = 0; i < others.size(); ++i) {
      for (size_t j = i + 1; j < others.size(); ++j) {
        counts[{others[i], others[j]}] = games(rng);
        counts[{others[j], others[i]}] = games(rng);
      }
    }
    for (AgentId o : others) {
      const double won = games(rng), lost = games(rng);
      counts[{x, o}] = counts[{y, o}] = won;
      counts[{o, x}] = counts[{o, y}] = lost;
    }
    counts[{x, y}] = counts[{y, x}] = 1;
    const BradleyTerryOptions options;  // the defaults: prior 2, tolerance 1e-4
    const absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(8, Pairs(counts), options);
    ASSERT_THAT(fit, IsOk()) << fit.status();
    const double gap = std::abs(fit->ratings[x] - fit->ratings[y]);
    EXPECT_LE(gap, options.tolerance);
    noisy += gap > 0.0;
    for (const auto& [x_name, y_name] : {std::pair{"p", "q"}, std::pair{"q", "p"}}) {
      const AgentIndex index = Names({"o0", x_name, "o2", "o3", "o4", "o5", "o6", y_name});
      const std::vector<std::string> order =
          Order(RankByRating(fit->ratings, index, options.tolerance), index);
      const auto p = std::find(order.begin(), order.end(), "p");
      const auto q = std::find(order.begin(), order.end(), "q");
      EXPECT_EQ(q - p, 1) << "trial " << trial << ": " << x_name << " = " << fit->ratings[x] << ", "
                          << y_name << " = " << fit->ratings[y];
    }
  }
  // The case is not vacuous: rounding does separate the two in some trials.
  EXPECT_GT(noisy, 0);
}

// Random complete round robins with every count >= 1 (strongly connected, so prior 0 is
// allowed): relabelling the agents permutes ratings (to rounding) and the order exactly;
// doubling every count leaves the maximum-likelihood ratings bit-identical (W and the MM
// denominators double exactly). With prior > 0 doubling is not neutral: the prior's
// virtual games then weigh half as much against the data.
TEST(BradleyTerryTiesTest, RelabellingPermutesAndDoublingChangesNothing) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> games(1, 6);
  const size_t m = 7;
  for (int trial = 0; trial < 20; ++trial) {
    Counts counts;
    for (AgentId a = 0; a < m; ++a) {
      for (AgentId b = 0; b < m; ++b) {
        if (a != b) counts[{a, b}] = games(rng);
      }
    }
    const BradleyTerryOptions options{.prior = 0.0};
    std::vector<std::string> names;
    for (AgentId a = 0; a < m; ++a) names.push_back(std::string(1, static_cast<char>('a' + a)));
    const AgentIndex index = Names(names);
    const absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(m, Pairs(counts), options);
    ASSERT_THAT(fit, IsOk()) << fit.status();
    const std::vector<std::string> order =
        Order(RankByRating(fit->ratings, index, options.tolerance), index);

    std::vector<AgentId> relabel(m);
    std::iota(relabel.begin(), relabel.end(), AgentId{0});
    std::shuffle(relabel.begin(), relabel.end(), rng);
    Counts relabelled;
    std::vector<std::string> relabelled_names(m);
    for (const auto& [ab, n] : counts) relabelled[{relabel[ab.first], relabel[ab.second]}] = n;
    for (AgentId a = 0; a < m; ++a) relabelled_names[relabel[a]] = names[a];
    const AgentIndex relabelled_index = Names(relabelled_names);
    const absl::StatusOr<BradleyTerryFit> moved = FitBradleyTerry(m, Pairs(relabelled), options);
    ASSERT_THAT(moved, IsOk()) << moved.status();
    for (AgentId a = 0; a < m; ++a) EXPECT_NEAR(moved->ratings[relabel[a]], fit->ratings[a], 1e-9);
    EXPECT_EQ(
        Order(RankByRating(moved->ratings, relabelled_index, options.tolerance), relabelled_index),
        order);

    Counts doubled = counts;
    for (auto& [ab, n] : doubled) n *= 2;
    const absl::StatusOr<BradleyTerryFit> twice = FitBradleyTerry(m, Pairs(doubled), options);
    ASSERT_THAT(twice, IsOk()) << twice.status();
    EXPECT_EQ(twice->ratings, fit->ratings);
  }
}

}  // namespace
}  // namespace ratings
