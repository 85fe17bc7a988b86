// Condorcet consistency on random profiles: when a Condorcet winner exists (found here
// directly from the votes), Copeland, Kemeny, Schulze, ranked pairs, maximal lotteries
// and IML all top-rank it ([VasE] Table 4); and Schulze's strongest
// paths agree with a brute-force search over every simple path.
#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/copeland.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/schulze.h"
#include "tests/ratings/voting/profiles.h"

namespace ratings::voting {
namespace {

// The agent beating every other by a strict majority of the votes ranking both, or -1.
int CondorcetWinner(const VoteSet& profile) {
  for (AgentId w = 0; w < profile.num_agents(); ++w) {
    bool wins_all = true;
    for (AgentId b = 0; b < profile.num_agents() && wins_all; ++b) {
      if (b == w) continue;
      double margin = 0.0;
      for (size_t v = 0; v < profile.size(); ++v) {
        const IndexedResult vote = profile.BestFirst(v);
        const auto agents = vote.agents;
        const auto groups = vote.ranks;
        int gw = -1, gb = -1;
        for (size_t i = 0; i < agents.size(); ++i) {
          if (agents[i] == w) gw = static_cast<int>(groups[i]);
          if (agents[i] == b) gb = static_cast<int>(groups[i]);
        }
        if (gw >= 0 && gb >= 0)
          margin += gw < gb ? profile.Weight(v) : gw > gb ? -profile.Weight(v) : 0.0;
      }
      wins_all = margin > 0.0;
    }
    if (wins_all) return static_cast<int>(w);
  }
  return -1;
}

TEST(CondorcetTest, EveryCondorcetMethodTopRanksTheCondorcetWinner) {
  std::mt19937 rng(3);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const size_t m = 3 + static_cast<size_t>(trial % 6);
    std::vector<std::pair<double, std::vector<AgentId>>> votes;
    std::vector<AgentId> all(m);
    std::iota(all.begin(), all.end(), AgentId{0});
    for (int v = 0; v < 7; ++v) {
      std::shuffle(all.begin(), all.end(), rng);
      votes.push_back({1.0, all});
    }
    const VoteSet profile = testing::StrictProfile(m, votes);
    const int winner = CondorcetWinner(profile);
    if (winner < 0) continue;
    ++checked;
    const auto w = static_cast<AgentId>(winner);
    const std::vector<uint32_t> priority = IdentityPriority(m);
    const BatchTally tally = BatchTally::FromVotes(profile);
    const Eigen::MatrixXd n = *tally.PreferenceMatrix();
    const Eigen::MatrixXd margins = *tally.MarginMatrix();
    EXPECT_EQ(OrderByScore(CopelandScores(tally), priority)[0], w);
    EXPECT_EQ(Kemeny(n, {}, priority)->order.order[0], w);
    EXPECT_EQ(Schulze(n, priority).order.order[0], w);
    EXPECT_EQ(RankedPairs(margins, priority).order[0], w);
    EXPECT_NEAR(SolveMaximalLottery(margins)->lottery[w], 1.0, 1e-12);
    const ImlOutcome iml = *IterativeMaximalLotteries(margins);
    ASSERT_EQ(iml.levels[0].size(), 1u);
    EXPECT_EQ(iml.levels[0][0].first, w);
    EXPECT_NEAR(iml.score[w], static_cast<double>(iml.levels.size()), 1e-9);
  }
  EXPECT_GT(checked, 100);
}

// The strongest-path matrix against a brute-force search over all simple paths.
TEST(CondorcetTest, SchulzeStrongestPathsMatchAllSimplePaths) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 40; ++trial) {
    const int m = 3 + trial % 4;
    Eigen::MatrixXd n(m, m);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) n(i, j) = i == j ? 0 : static_cast<double>(rng() % 6);
    }
    const SchulzeOutcome schulze = Schulze(n, IdentityPriority(static_cast<size_t>(m)));
    for (int a = 0; a < m; ++a) {
      for (int b = 0; b < m; ++b) {
        if (a == b) continue;
        // All orderings of intermediate subsets via permutations of the others.
        std::vector<int> others;
        for (int c = 0; c < m; ++c) {
          if (c != a && c != b) others.push_back(c);
        }
        double best = 0.0;
        std::sort(others.begin(), others.end());
        do {
          for (size_t len = 0; len <= others.size(); ++len) {
            std::vector<int> path = {a};
            path.insert(path.end(), others.begin(), others.begin() + static_cast<long>(len));
            path.push_back(b);
            double strength = 1e300;
            for (size_t i = 0; i + 1 < path.size(); ++i) {
              const double f = n(path[i], path[i + 1]), r = n(path[i + 1], path[i]);
              strength = f > r ? std::min(strength, f) : 0.0;
            }
            best = std::max(best, strength);
          }
        } while (std::next_permutation(others.begin(), others.end()));
        EXPECT_EQ(schulze.strongest_paths(a, b), best) << n;
      }
    }
  }
}

}  // namespace
}  // namespace ratings::voting

namespace ratings::voting {
namespace {

// Ranked pairs against a direct re-implementation: pairs sorted the same way, each
// locked unless a depth-first search finds a path back; sources taken by priority;
// score = sum of margins of the locked edges whose tail is reachable from the agent.
TEST(RankedPairsTest, MatchesADepthFirstReimplementation) {
  std::mt19937 rng(21);
  for (int trial = 0; trial < 60; ++trial) {
    const int m = 3 + trial % 6;
    Eigen::MatrixXd margins = Eigen::MatrixXd::Zero(m, m);
    for (int i = 0; i < m; ++i) {
      for (int j = i + 1; j < m; ++j) {
        margins(i, j) = static_cast<double>(static_cast<int>(rng() % 7) - 3);
        margins(j, i) = -margins(i, j);
      }
    }
    std::vector<std::tuple<double, int, int>> pairs;  // (-margin, from, to): sorts as ours
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) {
        if (margins(i, j) > 0) pairs.emplace_back(-margins(i, j), i, j);
      }
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<std::vector<int>> out(m);
    std::function<bool(int, int)> reaches = [&](int from, int to) {
      if (from == to) return true;
      for (int next : out[from]) {
        if (reaches(next, to)) return true;
      }
      return false;
    };
    std::vector<std::tuple<int, int, double>> locked;
    for (const auto& [neg, from, to] : pairs) {
      if (reaches(to, from)) continue;
      out[from].push_back(to);
      locked.emplace_back(from, to, -neg);
    }
    std::vector<int> indegree(m, 0);
    for (const auto& [from, to, w] : locked) ++indegree[to];
    std::vector<bool> taken(m, false);
    std::vector<AgentId> order;
    std::vector<double> score(m, 0.0);
    for (int step = 0; step < m; ++step) {
      int source = 0;
      while (taken[source] || indegree[source] > 0) ++source;
      taken[source] = true;
      order.push_back(static_cast<AgentId>(source));
      for (const auto& [from, to, w] : locked) {
        if (reaches(source, from)) score[source] += w;
        if (from == source) --indegree[to];
      }
    }
    const SocialOrder ours = RankedPairs(margins, IdentityPriority(static_cast<size_t>(m)));
    EXPECT_EQ(ours.order, order) << margins;
    EXPECT_EQ(ours.score, score) << margins;
  }
}

}  // namespace
}  // namespace ratings::voting
