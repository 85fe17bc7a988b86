#include "ratings/generators/generated_profile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/measures/kendall_tau.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;

TEST(MallowsTest, DispersionZeroGivesTheReference) {
  absl::StatusOr<GeneratedProfile> p =
      GenerateMallows({.agents = 7, .tasks = 30, .dispersion = 0, .seed = 2});
  ASSERT_THAT(p, IsOk()) << p.status();
  ASSERT_EQ(p->orders.size(), 30u);
  for (const auto& order : p->orders) EXPECT_EQ(order, p->truth);
  // The reference itself is a permutation of all agents.
  std::vector<AgentId> sorted = p->truth;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<AgentId>{0, 1, 2, 3, 4, 5, 6}));
}

// Eq. (4): P(r) = phi^{K_d(ref, r)} / Z. For m = 3 the permutations have 0, 1, 1, 2, 2, 3
// inversions, so with phi = 1/2, Z = 1 + 2/2 + 2/4 + 1/8 = 2.625 and P(K_d = 0..3) =
// (1, 1, 0.5, 0.125) / 2.625. 20,000 draws: the standard error is < 0.0035.
TEST(MallowsTest, DistanceDistributionMatchesEquationFour) {
  absl::StatusOr<GeneratedProfile> p =
      GenerateMallows({.agents = 3, .tasks = 20000, .dispersion = 0.5, .seed = 11});
  ASSERT_THAT(p, IsOk());
  std::vector<double> frequency(4, 0.0);
  for (const auto& order : p->orders) {
    frequency[*KendallTauDistance(order, p->truth)] += 1.0 / 20000;
  }
  const std::vector<double> expected = {1 / 2.625, 1 / 2.625, 0.5 / 2.625, 0.125 / 2.625};
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(frequency[k], expected[k], 0.015) << k;
}

// phi = 1: every ranking equally likely, 1/6 each for m = 3.
TEST(MallowsTest, DispersionOneIsUniform) {
  absl::StatusOr<GeneratedProfile> p =
      GenerateMallows({.agents = 3, .tasks = 12000, .dispersion = 1, .seed = 5});
  ASSERT_THAT(p, IsOk());
  std::map<std::vector<AgentId>, double> frequency;
  for (const auto& order : p->orders) frequency[order] += 1.0 / 12000;
  EXPECT_EQ(frequency.size(), 6u);
  for (const auto& [order, f] : frequency) EXPECT_NEAR(f, 1.0 / 6, 0.015);
}

// App. C.2: the first place is drawn with P = softmax(theta / tau); 20,000 draws.
TEST(PlackettLuceTest, FirstPlaceFrequenciesMatchTheWeights) {
  absl::StatusOr<GeneratedProfile> p =
      GeneratePlackettLuce({.agents = 4, .tasks = 20000, .tau = 2, .max_rating = 5, .seed = 3});
  ASSERT_THAT(p, IsOk());
  ASSERT_EQ(p->truth_ratings.size(), 4u);
  double z = 0;
  for (double r : p->truth_ratings) z += std::exp(r / 2);
  std::vector<double> first(4, 0.0);
  for (const auto& order : p->orders) {
    ASSERT_EQ(order.size(), 4u);
    first[order[0]] += 1.0 / 20000;
  }
  for (int a = 0; a < 4; ++a) {
    EXPECT_NEAR(first[a], std::exp(p->truth_ratings[a] / 2) / z, 0.015) << a;
  }
  // The truth is the ratings in descending order.
  for (size_t i = 1; i < p->truth.size(); ++i) {
    EXPECT_GE(p->truth_ratings[p->truth[i - 1]], p->truth_ratings[p->truth[i]]);
  }
}

// App. C.1: a clone is inserted directly next to its original in every ranking and the
// truth, so each original and its clones always form one contiguous block.
TEST(ClonesTest, ClonesAreAdjacentToTheirOriginals) {
  absl::StatusOr<GeneratedProfile> p = GenerateClones(
      {.base = {.agents = 5, .tasks = 40, .dispersion = 0.6, .seed = 8}, .clones = 5});
  ASSERT_THAT(p, IsOk());
  ASSERT_EQ(p->names.size(), 10u);
  std::vector<AgentId> group(10);  // agent -> its original
  for (AgentId a = 0; a < 10; ++a) {
    const std::string& name = p->names[a];
    const std::string original = name.substr(0, name.find("-clone"));
    group[a] = static_cast<AgentId>(std::find(p->names.begin(), p->names.end(), original) -
                                    p->names.begin());
    ASSERT_LT(group[a], 5u) << name;
  }
  auto contiguous = [&](const std::vector<AgentId>& order) {
    EXPECT_EQ(order.size(), 10u);
    std::set<AgentId> closed;  // groups already left
    for (size_t i = 0; i < order.size(); ++i) {
      if (closed.contains(group[order[i]])) return false;
      if (i + 1 < order.size() && group[order[i + 1]] != group[order[i]]) {
        closed.insert(group[order[i]]);
      }
    }
    return true;
  };
  EXPECT_TRUE(contiguous(p->truth));
  for (const auto& order : p->orders) EXPECT_TRUE(contiguous(order));
  // Without the clones, the profile is the base Mallows profile.
  absl::StatusOr<GeneratedProfile> base =
      GenerateMallows({.agents = 5, .tasks = 40, .dispersion = 0.6, .seed = 8});
  for (size_t t = 0; t < p->orders.size(); ++t) {
    std::vector<AgentId> originals;
    for (AgentId a : p->orders[t]) {
      if (a < 5) originals.push_back(a);
    }
    EXPECT_EQ(originals, base->orders[t]);
  }
}

TEST(CycleTest, RotationsOfTheReference) {
  absl::StatusOr<GeneratedProfile> p = GenerateCycle({.agents = 3, .tasks = 6});
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->orders[0], (std::vector<AgentId>{0, 1, 2}));
  EXPECT_EQ(p->orders[1], (std::vector<AgentId>{1, 2, 0}));
  EXPECT_EQ(p->orders[2], (std::vector<AgentId>{2, 0, 1}));
  EXPECT_EQ(p->orders[3], p->orders[0]);
}

// Proportion of the 190 pairs of 20 agents never met in n contests.
double MissingPairs(const GeneratedProfile& p) {
  std::set<std::pair<AgentId, AgentId>> met;
  for (const auto& order : p.orders) {
    for (size_t i = 0; i < order.size(); ++i) {
      for (size_t j = i + 1; j < order.size(); ++j) {
        met.insert(std::minmax(order[i], order[j]));
      }
    }
  }
  return 1.0 - static_cast<double>(met.size()) / 190.0;
}

// SCO §4.3 Table 3. Uniform match-making has a closed form: a pair is in a 4-player
// contest of 20 agents with probability (4*3)/(20*19), so
// p_missing = (1 - 12/380)^n: 0.526 at n = 20 and 0.200 at n = 50 (Table 3: 0.52, 0.20).
// Skill matching leaves more pairs missing (Table 3: 0.59 and 0.36).
TEST(TournamentTest, MissingPairsMatchTableThree) {
  for (auto [n, uniform_expected, skill_expected] :
       {std::tuple{20, 0.526, 0.59}, std::tuple{50, 0.200, 0.36}}) {
    double uniform = 0, skill = 0;
    const int seeds = 200;
    for (int seed = 0; seed < seeds; ++seed) {
      uniform +=
          MissingPairs(*GenerateTournament({.contests = n, .seed = static_cast<uint64_t>(seed)})) /
          seeds;
      skill +=
          MissingPairs(*GenerateTournament(
              {.contests = n, .matching = Matching::kSkill, .seed = static_cast<uint64_t>(seed)})) /
          seeds;
    }
    EXPECT_NEAR(uniform, uniform_expected, 0.01) << n;
    EXPECT_NEAR(skill, skill_expected, 0.04) << n;
    EXPECT_GT(skill, uniform + 0.03) << n;
  }
}

TEST(TournamentTest, ContestsAreDistinctAgentsOrderedAndDeterministic) {
  const TournamentOptions options = {.agents = 10, .players = 4, .contests = 30, .seed = 4};
  absl::StatusOr<GeneratedProfile> p = GenerateTournament(options);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->orders.size(), 30u);
  for (const auto& order : p->orders) {
    EXPECT_EQ(std::set<AgentId>(order.begin(), order.end()).size(), 4u);
  }
  absl::StatusOr<GeneratedProfile> again = GenerateTournament(options);
  EXPECT_EQ(again->orders, p->orders);
  EXPECT_EQ(again->truth_ratings, p->truth_ratings);
  TournamentOptions other = options;
  other.seed = 5;
  EXPECT_NE(GenerateTournament(other)->orders, p->orders);
}

TEST(GeneratorsTest, RejectBadOptions) {
  EXPECT_THAT(GenerateMallows({.dispersion = 1.5}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GenerateMallows({.agents = 1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GeneratePlackettLuce({.tau = 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GenerateTournament({.agents = 3, .players = 4}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GenerateTournament({.noise_std = -1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GenerateClones({.clones = -1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings
