// Properties every rule must keep on arbitrary input (random weak orders over random
// subsets, random weights): orders are permutations of all agents, scores are finite,
// lotteries are maximal distributions, IML levels partition the agents, and the
// order-producing rules agree with their own scores where the appendix says they must
// (STV's score decreases along its order; IML's order is its score's). Then, per rule
// (docs/MODELS.md §9): relabelling the agents permutes the order and the scores; counting
// every vote twice changes no order; and two agents made exchangeable (the profile plus its
// mirror image swapping them) tie exactly and are ordered by priority.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/agent_index.h"
#include "ratings/ranking.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/copeland.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/schulze.h"
#include "ratings/voting/scoring_rules.h"
#include "ratings/voting/stv.h"
#include "tests/ratings/voting/profiles.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;

void ExpectPermutation(const std::vector<AgentId>& order, size_t m) {
  std::vector<AgentId> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<AgentId> all(m);
  std::iota(all.begin(), all.end(), AgentId{0});
  EXPECT_EQ(sorted, all);
}

void ExpectFinite(const std::vector<double>& v) {
  for (double x : v) EXPECT_TRUE(std::isfinite(x));
}

TEST(InvariantsTest, RandomProfiles) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> weight(0.1, 5.0);
  for (int trial = 0; trial < 150; ++trial) {
    const size_t m = 1 + static_cast<size_t>(trial % 12);
    VoteSet profile(m);
    std::vector<AgentId> all(m);
    std::iota(all.begin(), all.end(), AgentId{0});
    const int votes = static_cast<int>(rng() % 20);
    for (int v = 0; v < votes && m >= 2; ++v) {
      std::shuffle(all.begin(), all.end(), rng);
      const size_t k = 2 + rng() % (m - 1);
      testing::WeakOrder order;
      for (size_t i = 0; i < k; ++i) {
        if (order.empty() || rng() % 3 != 0) order.emplace_back();
        order.back().push_back(all[i]);
      }
      testing::AddWeakOrder(profile, order, weight(rng));
    }
    const std::vector<uint32_t> priority = IdentityPriority(m);
    const BatchTally tally = BatchTally::FromVotes(profile);
    const Eigen::MatrixXd n = *tally.PreferenceMatrix();
    const Eigen::MatrixXd margins = *tally.MarginMatrix();

    ExpectFinite(ApprovalScores(profile, 3));
    ExpectFinite(PluralityScores(profile));
    ExpectFinite(BordaScores(profile));
    ExpectFinite(CopelandScores(tally));

    const StvOutcome stv = *Stv(profile, {}, priority);
    ExpectPermutation(stv.order.order, m);
    for (size_t i = 1; i < stv.order.order.size(); ++i) {
      EXPECT_GT(stv.order.score[stv.order.order[i - 1]], stv.order.score[stv.order.order[i]]);
    }
    const absl::StatusOr<KemenyOutcome> kemeny = Kemeny(n, {}, priority);
    ASSERT_THAT(kemeny, IsOk());
    ExpectPermutation(kemeny->order.order, m);
    ExpectPermutation(Schulze(n, priority).order.order, m);
    ExpectPermutation(RankedPairs(margins, priority).order, m);

    const ExactLottery ml = *SolveMaximalLottery(margins);
    ASSERT_EQ(ml.lottery.size(), m);
    double total = 0.0;
    for (size_t a = 0; a < m; ++a) {
      EXPECT_GE(ml.lottery[a], 0.0);
      total += ml.lottery[a];
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_LT(ml.exploitability, 1e-9);

    const ImlOutcome iml = *IterativeMaximalLotteries(margins);
    std::set<AgentId> seen;
    for (size_t t = 0; t < iml.levels.size(); ++t) {
      ASSERT_FALSE(iml.levels[t].empty());
      for (const auto& [agent, p] : iml.levels[t]) {
        EXPECT_TRUE(seen.insert(agent).second);
        EXPECT_GT(p, 0.0);
        EXPECT_LE(p, 1.0);
        // Level t from the top sits in (L, L + 1] with L = levels - 1 - t.
        const double level = static_cast<double>(iml.levels.size() - 1 - t);
        EXPECT_GT(iml.score[agent], level);
        EXPECT_LE(iml.score[agent], level + 1.0);
      }
    }
    EXPECT_EQ(seen.size(), m);
  }
}

// A random profile over m agents: weak orders over random subsets of 2..m agents, with
// weights drawn from `weights`.
VoteSet RandomProfile(size_t m, int votes, const std::vector<double>& weights, std::mt19937& rng) {
  VoteSet profile(m);
  std::vector<AgentId> all(m);
  std::iota(all.begin(), all.end(), AgentId{0});
  for (int v = 0; v < votes && m >= 2; ++v) {
    std::shuffle(all.begin(), all.end(), rng);
    const size_t k = 2 + rng() % (m - 1);
    testing::WeakOrder order;
    for (size_t i = 0; i < k; ++i) {
      if (order.empty() || rng() % 3 != 0) order.emplace_back();
      order.back().push_back(all[i]);
    }
    testing::AddWeakOrder(profile, order, weights[rng() % weights.size()]);
  }
  return profile;
}

// Every vote with its agents mapped by `to` (standing order, ranks and weight kept).
VoteSet Relabel(const VoteSet& profile, const std::vector<AgentId>& to) {
  VoteSet out(profile.num_agents());
  for (size_t v = 0; v < profile.size(); ++v) {
    const IndexedResult vote = profile[v];
    std::vector<AgentId> agents;
    for (AgentId a : vote.agents) agents.push_back(to[a]);
    std::vector<uint32_t> ranks(vote.ranks.begin(), vote.ranks.end());
    out.Add({agents, ranks, vote.weight});
  }
  return out;
}

// What the properties read of a rule: its order and its scores (for ml-exact, the ratings
// (Mp)(a)/max|M| and, appended, the lottery).
struct RuleOutcome {
  std::vector<AgentId> order;
  std::vector<double> score;
};

struct Rule {
  std::string name;
  // Scores are counted exactly (equal scores are equal doubles), else within 1e-9.
  bool exact = true;
  // Exchangeable agents get equal scores (false where the score depends on the position in
  // the order: STV, Kemeny, Schulze, ranked pairs).
  bool symmetric_score = true;
  // Counting every vote twice keeps the order (false for STV: the Droop quota
  // floor(n / (k + 1)) + 1 does not double with n).
  bool scale_free = true;
  std::function<RuleOutcome(const VoteSet&, Priority)> run;
};

// Names whose byte order is the priority order: ml-exact and iml are ranked by name.
AgentIndex NamesByPriority(Priority priority) {
  AgentIndex index;
  for (uint32_t p : priority) {
    const std::string digits = std::to_string(p);
    index.Intern(std::string(8 - digits.size(), '0') + digits);
  }
  return index;
}

std::vector<AgentId> Ids(const std::vector<RankedAgent>& ranked) {
  std::vector<AgentId> out;
  for (const RankedAgent& r : ranked) out.push_back(r.id);
  return out;
}

std::vector<Rule> AllRules() {
  const auto social = [](const SocialOrder& o) { return RuleOutcome{o.order, o.score}; };
  const double tolerance = ExactLotteryOptions{}.tolerance;
  return {
      {.name = "approval",
       .run = [=](const VoteSet& p, Priority q) { return social(Approval(p, 3, q)); }},
      {.name = "plurality",
       .run = [=](const VoteSet& p, Priority q) { return social(Plurality(p, q)); }},
      {.name = "borda", .run = [=](const VoteSet& p, Priority q) { return social(Borda(p, q)); }},
      {.name = "stv",
       .symmetric_score = false,
       .scale_free = false,
       .run = [=](const VoteSet& p, Priority q) { return social(Stv(p, {}, q)->order); }},
      {.name = "copeland",
       .run =
           [](const VoteSet& p, Priority q) {
             const std::vector<double> score = CopelandScores(BatchTally::FromVotes(p));
             return RuleOutcome{OrderByScore(score, q), score};
           }},
      {.name = "kemeny",
       .symmetric_score = false,
       .run =
           [=](const VoteSet& p, Priority q) {
             return social(Kemeny(*BatchTally::FromVotes(p).PreferenceMatrix(), {}, q)->order);
           }},
      {.name = "schulze",
       .symmetric_score = false,
       .run =
           [=](const VoteSet& p, Priority q) {
             return social(Schulze(*BatchTally::FromVotes(p).PreferenceMatrix(), q).order);
           }},
      {.name = "ranked-pairs",
       .symmetric_score = false,
       .run =
           [=](const VoteSet& p, Priority q) {
             return social(RankedPairs(*BatchTally::FromVotes(p).MarginMatrix(), q));
           }},
      {.name = "ml-exact",
       .exact = false,
       .run =
           [=](const VoteSet& p, Priority q) {
             const ExactLottery ml = *SolveMaximalLottery(*BatchTally::FromVotes(p).MarginMatrix());
             RuleOutcome out{Ids(RankByProbabilityThenRating(ml.lottery, ml.rating,
                                                             NamesByPriority(q), tolerance)),
                             ml.rating};
             out.score.insert(out.score.end(), ml.lottery.begin(), ml.lottery.end());
             return out;
           }},
      {.name = "iml",
       .exact = false,
       .run =
           [=](const VoteSet& p, Priority q) {
             const ImlOutcome iml =
                 *IterativeMaximalLotteries(*BatchTally::FromVotes(p).MarginMatrix());
             return RuleOutcome{Ids(RankByRating(iml.score, NamesByPriority(q), tolerance)),
                                iml.score};
           }},
  };
}

// Integer weights keep the pairwise counts exact under doubling; the symmetric case below
// uses decimal weights, whose sums round.
const std::vector<double> kIntegerWeights = {1, 2, 3};
const std::vector<double> kDecimalWeights = {0.1, 0.2, 0.3, 0.7, 1.1};

std::vector<uint32_t> RandomPriority(size_t m, std::mt19937& rng) {
  std::vector<uint32_t> priority = IdentityPriority(m);
  std::shuffle(priority.begin(), priority.end(), rng);
  return priority;
}

// Relabelling by a random permutation (and the priority with it) permutes the order; the
// scores follow the agents, exactly for the exact rules.
TEST(InvariantsTest, RelabellingPermutesEveryRule) {
  std::mt19937 rng(101);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t m = 2 + static_cast<size_t>(trial % 7);
    const VoteSet profile =
        RandomProfile(m, 1 + static_cast<int>(rng() % 15), kIntegerWeights, rng);
    const std::vector<uint32_t> priority = RandomPriority(m, rng);
    std::vector<AgentId> to(m);
    std::iota(to.begin(), to.end(), AgentId{0});
    std::shuffle(to.begin(), to.end(), rng);
    const VoteSet relabelled = Relabel(profile, to);
    std::vector<uint32_t> moved_priority(m);
    for (AgentId a = 0; a < m; ++a) moved_priority[to[a]] = priority[a];
    for (const Rule& rule : AllRules()) {
      SCOPED_TRACE(rule.name + ", trial " + std::to_string(trial));
      const RuleOutcome before = rule.run(profile, priority);
      const RuleOutcome after = rule.run(relabelled, moved_priority);
      ASSERT_EQ(after.order.size(), m);
      for (size_t i = 0; i < m; ++i) EXPECT_EQ(after.order[i], to[before.order[i]]);
      for (size_t i = 0; i < before.score.size(); ++i) {
        const double moved = after.score[(i / m) * m + to[i % m]];
        if (rule.exact) {
          EXPECT_EQ(moved, before.score[i]);
        } else {
          EXPECT_NEAR(moved, before.score[i], 1e-9);
        }
      }
    }
  }
}

// Every vote counted twice (appended again): no order changes, except STV's (see Rule).
TEST(InvariantsTest, CountingEveryVoteTwiceKeepsEveryOrder) {
  std::mt19937 rng(202);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t m = 2 + static_cast<size_t>(trial % 7);
    const VoteSet profile =
        RandomProfile(m, 1 + static_cast<int>(rng() % 15), kIntegerWeights, rng);
    VoteSet twice = profile;
    for (size_t v = 0; v < profile.size(); ++v) twice.Add(profile[v]);
    const std::vector<uint32_t> priority = RandomPriority(m, rng);
    for (const Rule& rule : AllRules()) {
      if (!rule.scale_free) continue;
      SCOPED_TRACE(rule.name + ", trial " + std::to_string(trial));
      EXPECT_EQ(rule.run(twice, priority).order, rule.run(profile, priority).order);
    }
  }
}

// Agents x and y made exchangeable: the profile plus its mirror image with x and y swapped
// in every vote. Every rule treats them alike, so they tie; the one with the lower priority
// comes first, under either priority. Decimal weights: the naive sums of x's and y's points
// add the same numbers in different orders and differ in the last bit.
TEST(InvariantsTest, ExchangeableAgentsTieAndGoByPriority) {
  std::mt19937 rng(303);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t m = 2 + static_cast<size_t>(trial % 7);
    const VoteSet base = RandomProfile(m, 1 + static_cast<int>(rng() % 12), kDecimalWeights, rng);
    const AgentId x = static_cast<AgentId>(rng() % m);
    const AgentId y = static_cast<AgentId>((x + 1 + rng() % (m - 1)) % m);
    std::vector<AgentId> swap(m);
    std::iota(swap.begin(), swap.end(), AgentId{0});
    std::swap(swap[x], swap[y]);
    VoteSet profile = base;
    const VoteSet mirror = Relabel(base, swap);
    for (size_t v = 0; v < mirror.size(); ++v) profile.Add(mirror[v]);
    std::vector<uint32_t> priority = RandomPriority(m, rng);
    for (int flip = 0; flip < 2; ++flip) {
      std::swap(priority[x], priority[y]);
      const AgentId first = priority[x] < priority[y] ? x : y;
      for (const Rule& rule : AllRules()) {
        SCOPED_TRACE(rule.name + ", trial " + std::to_string(trial));
        const RuleOutcome out = rule.run(profile, priority);
        const auto at = [&](AgentId a) {
          return std::find(out.order.begin(), out.order.end(), a) - out.order.begin();
        };
        EXPECT_LT(at(first), at(first == x ? y : x));
        if (!rule.symmetric_score) continue;
        if (rule.exact) {
          EXPECT_EQ(out.score[x], out.score[y]);
        } else {
          EXPECT_NEAR(out.score[x], out.score[y], 1e-9);
        }
      }
    }
  }
}

}  // namespace
}  // namespace ratings::voting
