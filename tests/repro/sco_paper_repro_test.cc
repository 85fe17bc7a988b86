// Reproductions of [SCO] experiments (label `repro`: seconds, not
// milliseconds; run by the ci workflow). Expected values come from the paper (Table 2,
// §4.3) and from independent computations written here: a brute-force exact Kemeny
// ranking by dynamic programming over subsets and a direct Condorcet check on the dense
// N matrix.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/agent_index.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/batch/sco_batch.h"
#include "ratings/batch/vote_set.h"
#include "ratings/generators/generated_profile.h"
#include "ratings/io/read_results.h"
#include "ratings/io/records_to_votes.h"
#include "ratings/measures/kendall_tau.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;

// Order by rating descending, then id ascending (docs/CONTRACTS.md §2).
std::vector<AgentId> OrderOf(const std::vector<double>& rating) {
  std::vector<AgentId> order(rating.size());
  for (AgentId i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](AgentId a, AgentId b) { return rating[a] > rating[b]; });
  return order;
}

// Dense N(a, b) = total weight of votes with a strictly above b.
std::vector<std::vector<double>> DenseN(const VoteSet& votes) {
  const size_t n = votes.num_agents();
  std::vector<std::vector<double>> N(n, std::vector<double>(n, 0.0));
  for (size_t r = 0; r < votes.size(); ++r) {
    const IndexedResult v = votes[r];
    for (size_t i = 0; i < v.size(); ++i) {
      for (size_t j = 0; j < v.size(); ++j) {
        if (v.ranks[i] < v.ranks[j]) N[v.agents[i]][v.agents[j]] += v.weight;
      }
    }
  }
  return N;
}

std::optional<AgentId> DenseCondorcetWinner(const std::vector<std::vector<double>>& N) {
  for (size_t c = 0; c < N.size(); ++c) {
    bool wins = true;
    for (size_t x = 0; x < N.size(); ++x) {
      if (x != c && !(N[c][x] > N[x][c])) wins = false;
    }
    if (wins) return static_cast<AgentId>(c);
  }
  return std::nullopt;
}

// An exact Kemeny–Young ranking (SCO Def. 3): minimises sum over ordered pairs of the
// votes disagreeing. DP over subsets S of the top positions: placing x directly below S
// costs sum_{y in S} N(x, y). O(2^n n^2); n <= 10 here.
std::vector<AgentId> ExactKemeny(const std::vector<std::vector<double>>& N) {
  const size_t n = N.size();
  const size_t full = (size_t{1} << n) - 1;
  std::vector<double> cost(full + 1, std::numeric_limits<double>::infinity());
  std::vector<int> last(full + 1, -1);
  cost[0] = 0;
  for (size_t s = 0; s < full; ++s) {
    if (cost[s] == std::numeric_limits<double>::infinity()) continue;
    for (size_t x = 0; x < n; ++x) {
      if (s & (size_t{1} << x)) continue;
      double add = 0;
      for (size_t y = 0; y < n; ++y) {
        if (s & (size_t{1} << y)) add += N[x][y];
      }
      const size_t t = s | (size_t{1} << x);
      if (cost[s] + add < cost[t]) {
        cost[t] = cost[s] + add;
        last[t] = static_cast<int>(x);
      }
    }
  }
  std::vector<AgentId> order;
  for (size_t s = full; s != 0; s &= ~(size_t{1} << last[s])) {
    order.push_back(static_cast<AgentId>(last[s]));
  }
  std::reverse(order.begin(), order.end());
  return order;
}

double KemenyCost(const std::vector<std::vector<double>>& N, const std::vector<AgentId>& order) {
  double cost = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t j = i + 1; j < order.size(); ++j) cost += N[order[j]][order[i]];
  }
  return cost;
}

// The DP against enumeration of all orders on a small profile (an independent check of
// the checker).
TEST(ExactKemenyTest, MatchesEnumeration) {
  const std::vector<std::vector<double>> N = {
      {0, 5, 2, 4}, {0, 0, 2, 3}, {3, 3, 0, 1}, {1, 2, 4, 0}};
  std::vector<AgentId> order = {0, 1, 2, 3};
  double best = std::numeric_limits<double>::infinity();
  do {
    best = std::min(best, KemenyCost(N, order));
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(KemenyCost(N, ExactKemeny(N)), best);
}

// SCO §4.2, Table 2, App. D.2 (m <= 10: batch 32, 10,000 iterations, alpha 0.01, tau 1):
// on PrefLib profiles with at most 10 alternatives, Algorithm 1 top-ranks the Condorcet
// winner in 92-100% of the profiles that have one and its normalised KTD to the Kemeny
// ranking averages <= 0.043 per group. Asked here: >= 90% and mean <= 0.05, averaged over
// 3 seeds as in the paper. Where several rankings are Kemeny-optimal the distance to the
// nearest cannot exceed the distance to the one the DP returns, so the check is strict.
TEST(ScoPaperReproTest, PreflibCondorcetMatchAndKemenyDistance) {
  const std::string dir = std::string(RATINGD_TEST_DATA) + "/preflib";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".soc" || ext == ".soi" || ext == ".toc" || ext == ".toi") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  int with_winner = 0, top_ranked = 0, profiles = 0;
  double kn_sum = 0;
  for (const std::string& file : files) {
    absl::StatusOr<io::ReadOutput> read =
        io::ReadResultsFile(file, *io::InferFormat(file), ResultLimits{});
    ASSERT_THAT(read, IsOk()) << read.status();
    AgentIndex index;
    absl::StatusOr<VoteSet> read_votes = io::ToVoteSet(read->records, file, index);
    ASSERT_THAT(read_votes, IsOk()) << read_votes.status();
    const VoteSet& votes = *read_votes;
    if (index.size() < 2 || index.size() > 10) continue;
    const std::vector<std::vector<double>> N = DenseN(votes);
    const std::optional<AgentId> winner = DenseCondorcetWinner(N);
    const std::vector<AgentId> kemeny = ExactKemeny(N);
    for (uint64_t seed : {1, 2, 3}) {
      absl::StatusOr<std::vector<double>> theta = SolveScoBatch(
          votes, {.batch = 32, .iterations = 10000, .alpha = 0.01, .tau = 1, .seed = seed});
      ASSERT_THAT(theta, IsOk());
      const std::vector<AgentId> order = OrderOf(*theta);
      ++profiles;
      kn_sum += *NormalisedKendallTau(order, kemeny);
      if (winner) {
        ++with_winner;
        if (order[0] == *winner) ++top_ranked;
      }
    }
  }
  ASSERT_GT(profiles, 60);  // 20+ files x 3 seeds
  const double match = static_cast<double>(top_ranked) / with_winner;
  const double mean_kn = kn_sum / profiles;
  RecordProperty("condorcet_match", std::to_string(match));
  RecordProperty("mean_normalised_ktd", std::to_string(mean_kn));
  std::printf("PrefLib (m <= 10): %d profile runs, Condorcet match %.3f (%d/%d), mean K_n %.4f\n",
              profiles, match, top_ranked, with_winner, mean_kn);
  EXPECT_GE(match, 0.90);
  EXPECT_LE(mean_kn, 0.05);
}

// SCO §4.3, Figure 2: 20 agents, 4-player contests, uniform and skill-matched; "when 59%
// or more of the match-ups are missing, SCO ratings ... achieve the lowest KTD", Elo
// (the Bradley–Terry fit, SCO §4 "For Elo ratings") comparable (uniform) or worse (skill).
// Uniform matching ties within noise in our runs (SCO vs this BT, whose per-agent prior
// already regularises sparse data), so there "no worse" is tested as not worse beyond two
// paired standard errors; skill matching must be strictly better.
// Contest counts with >= 59% missing pairs (Table 3): uniform n = 5, 10 (0.85, 0.72);
// skill-matched n = 5, 10, 20 (0.88, 0.75, 0.59). Algorithm 1 as in §4.3: 10,000
// iterations, batch 16. KTD over all 20 agents (max 190), averaged over 200 seeds.
TEST(ScoPaperReproTest, SparseTournamentsScoNoWorseThanElo) {
  struct Setting {
    Matching matching;
    int64_t contests;
  };
  for (const Setting setting : {Setting{Matching::kUniform, 5}, Setting{Matching::kUniform, 10},
                                Setting{Matching::kSkill, 5}, Setting{Matching::kSkill, 10},
                                Setting{Matching::kSkill, 20}}) {
    const int seeds = 200;  // as in SCO §4.3
    double sco_ktd = 0, elo_ktd = 0, diff_sq = 0;
    for (int seed = 0; seed < seeds; ++seed) {
      absl::StatusOr<GeneratedProfile> p =
          GenerateTournament({.contests = setting.contests,
                              .matching = setting.matching,
                              .seed = static_cast<uint64_t>(1000 + seed)});
      ASSERT_THAT(p, IsOk());
      VoteSet votes;
      std::vector<PairCount> pairs;
      for (const std::vector<AgentId>& order : p->orders) {
        std::vector<uint32_t> ranks(order.size());
        for (size_t i = 0; i < order.size(); ++i) ranks[i] = static_cast<uint32_t>(i + 1);
        votes.Add({order, ranks, 1.0});
        for (size_t i = 0; i < order.size(); ++i) {
          for (size_t j = i + 1; j < order.size(); ++j) {
            const AgentId a = std::min(order[i], order[j]), b = std::max(order[i], order[j]);
            auto it = std::find_if(pairs.begin(), pairs.end(),
                                   [&](const PairCount& q) { return q.a == a && q.b == b; });
            if (it == pairs.end()) it = pairs.insert(pairs.end(), {.a = a, .b = b});
            (order[i] == a ? it->n_ab : it->n_ba) += 1;
          }
        }
      }
      votes.SetNumAgents(p->names.size());
      absl::StatusOr<std::vector<double>> theta = SolveScoBatch(
          votes, {.batch = 16, .iterations = 10000, .seed = static_cast<uint64_t>(seed)});
      absl::StatusOr<BradleyTerryFit> bt = FitBradleyTerry(p->names.size(), pairs, {});
      ASSERT_THAT(theta, IsOk());
      ASSERT_THAT(bt, IsOk());
      const double sco = static_cast<double>(*KendallTauDistance(OrderOf(*theta), p->truth));
      const double elo = static_cast<double>(*KendallTauDistance(OrderOf(bt->ratings), p->truth));
      sco_ktd += sco / seeds;
      elo_ktd += elo / seeds;
      diff_sq += (sco - elo) * (sco - elo);
    }
    // Standard error of the paired mean difference over the seeds.
    const double mean_diff = sco_ktd - elo_ktd;
    const double se =
        std::sqrt((diff_sq / seeds - mean_diff * mean_diff) / static_cast<double>(seeds - 1));
    std::printf("%s n=%lld: mean KTD SCO %.2f, Elo (BT) %.2f, difference %.2f +- %.2f (SE)\n",
                setting.matching == Matching::kSkill ? "skill" : "uniform",
                static_cast<long long>(setting.contests), sco_ktd, elo_ktd, mean_diff, se);
    if (setting.matching == Matching::kSkill) {
      // Skill-matched: the paper reports Elo higher; SCO must be lower outright.
      EXPECT_LT(sco_ktd, elo_ktd) << "skill, contests " << setting.contests;
    } else {
      // Uniform: the paper reports the two "comparable"; SCO must not be worse beyond
      // noise (two paired standard errors, one-sided ~98%).
      EXPECT_LE(mean_diff, 2 * se) << "uniform, contests " << setting.contests;
    }
  }
}

}  // namespace
}  // namespace ratings
