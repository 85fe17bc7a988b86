// Reproductions of [AE] (label `repro`; run by the ci workflow). Expected values are the
// paper's (Tables 2-4) under the tolerance rule |ours - paper| <= max(0.004, 0.3 paper)
// (docs/ACTIVE.md §5: the paper leaves hyperparameters unstated, so a reading lands within
// about ±25% of its cells, and 100 seeds carry a Monte Carlo error near 1e-3), and closed
// forms computed here (the Mallows expectation). Cells the paper gets wrong (docs/ACTIVE.md
// §5) are not used.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ratings/active/score_generators.h"
#include "ratings/active/simulation.h"
#include "ratings/generators/generated_profile.h"
#include "ratings/io/read_results.h"
#include "ratings/measures/kendall_tau.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/social_order.h"

namespace ratings::active {
namespace {

struct Agre {
  double k3 = 0;
  double k8 = 0;
  double final_zero_k8 = 0;  // share of seeds with GRE(8) = 0 at round T
};

// 100 seeds x 10^4 rounds (the paper's settings), seeds split over two threads.
Agre RunAll(const ScoreGeneratorOptions& generator, const std::string& algorithm,
            const AlgorithmOptions& options = {}) {
  SimulationOptions sim;  // T = 10^4, 100 seeds, k = {3, 8}
  std::vector<SeedCurves> seeds(static_cast<size_t>(sim.seeds));
  auto work = [&](int64_t first) {
    for (int64_t i = first; i < sim.seeds; i += 2) {
      absl::StatusOr<SeedCurves> run = RunSeed(generator, algorithm, options, sim, i);
      EXPECT_TRUE(run.ok()) << run.status();
      if (run.ok()) seeds[static_cast<size_t>(i)] = *std::move(run);
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  const std::vector<Summary> s = Summarise(seeds, sim, false);
  return {s[0].agre, s[1].agre, s[1].final_gre_zero_fraction};
}

void ExpectNearPaper(double ours, double paper, const std::string& cell) {
  EXPECT_LE(std::abs(ours - paper), std::max(0.004, 0.3 * paper))
      << cell << ": ours " << ours << ", paper " << paper;
}

// §3.2.1 / App. B: E[K_d(reference, task ranking)] of the repeated insertion model is
// sum_{i=1}^{m-1} [phi/(1-phi) - (i+1) phi^{i+1} / (1 - phi^{i+1})] (2.668 at phi 0.3 and
// 6.899 at 0.6 for m = 8). 20,000 task rankings, within 3 standard errors.
TEST(ActiveEvaluationReproTest, MallowsKendallTauMatchesTheClosedForm) {
  for (double phi : {0.3, 0.6}) {
    double expected = 0;
    for (int i = 1; i <= 7; ++i) {
      expected += phi / (1 - phi) - (i + 1) * std::pow(phi, i + 1) / (1 - std::pow(phi, i + 1));
    }
    const GeneratedProfile p =
        *GenerateMallows({.agents = 8, .tasks = 20000, .dispersion = phi, .seed = 1});
    double sum = 0, squares = 0;
    for (const std::vector<AgentId>& order : p.orders) {
      const double d = static_cast<double>(*KendallTauDistance(order, p.truth));
      sum += d;
      squares += d * d;
    }
    const double n = static_cast<double>(p.orders.size());
    const double mean = sum / n;
    const double se = std::sqrt((squares / n - mean * mean) / n);
    EXPECT_NEAR(mean, expected, 3 * se) << "phi " << phi;
    EXPECT_NEAR(expected, phi == 0.3 ? 2.668 : 6.899, 0.0005);
  }
}

// App. B.1.1, Table 4: the Kemeny ranking of 50 Mallows task rankings against the truth,
// 1000 instances. KSD = |KEMENYSCORE(truth) - KEMENYSCORE(Kemeny ranking)|. phi 0.3: 0 in
// every instance; phi 0.6: paper 822 instances with KSD 0 and mean KSD 0.692 (the
// spec's independent simulation: 817 and 0.696).
TEST(ActiveEvaluationReproTest, Table4KemenyOfMallowsTaskRankings) {
  for (double phi : {0.3, 0.6}) {
    int zero = 0;
    double total = 0;
    for (uint64_t seed = 0; seed < 1000; ++seed) {
      const GeneratedProfile p =
          *GenerateMallows({.agents = 8, .tasks = 50, .dispersion = phi, .seed = seed});
      Eigen::MatrixXd n = Eigen::MatrixXd::Zero(8, 8);
      for (const std::vector<AgentId>& order : p.orders) {
        for (size_t i = 0; i < 8; ++i) {
          for (size_t j = i + 1; j < 8; ++j) n(order[i], order[j]) += 1;
        }
      }
      double truth_score = 0;
      for (size_t i = 0; i < 8; ++i) {
        for (size_t j = i + 1; j < 8; ++j) truth_score += n(p.truth[i], p.truth[j]);
      }
      const auto kemeny = voting::Kemeny(n, {}, voting::IdentityPriority(8));
      ASSERT_TRUE(kemeny.ok());
      const double ksd = std::abs(kemeny->value - truth_score);
      zero += ksd == 0 ? 1 : 0;
      total += ksd;
    }
    if (phi == 0.3) {
      EXPECT_EQ(zero, 1000);
    } else {
      EXPECT_GE(zero, 780);
      EXPECT_LE(zero, 860);
      EXPECT_GE(total / 1000, 0.55);
      EXPECT_LE(total / 1000, 0.85);
    }
  }
}

// Table 2, Exp. Condition 1 (Mallows, m = 8, n = 50, phi = 0.3): the cells a reading
// reproduces, and the ordering that holds under every reading.
TEST(ActiveEvaluationReproTest, Table2MallowsPhi03) {
  const ScoreGeneratorOptions mallows{.kind = GeneratorKind::kMallows, .phi = 0.3};
  const Agre uniform = RunAll(mallows, "uniform-averaging");
  const Agre ucb = RunAll(mallows, "basic-ucb");
  const Agre elo = RunAll(mallows, "batch-elo");
  const Agre copeland = RunAll(mallows, "batch-copeland");
  ExpectNearPaper(uniform.k3, 0.003, "UNIFORMAVERAGING k=3");
  ExpectNearPaper(uniform.k8, 0.002, "UNIFORMAVERAGING k=8");
  ExpectNearPaper(ucb.k3, 0.003, "BASICUCB k=3");
  ExpectNearPaper(ucb.k8, 0.007, "BASICUCB k=8");
  ExpectNearPaper(elo.k3, 0.009, "BATCHELO k=3");
  ExpectNearPaper(elo.k8, 0.006, "BATCHELO k=8");
  ExpectNearPaper(copeland.k3, 0.018, "BATCHCOPELAND k=3");
  ExpectNearPaper(copeland.k8, 0.010, "BATCHCOPELAND k=8");
  EXPECT_LT(std::max(uniform.k3, ucb.k3), elo.k3);
  EXPECT_LT(elo.k3, copeland.k3);
}

// Table 3, the Atari Agent57 simulator: the cells a reading reproduces (UNIFORMAVERAGING
// at k = 8 is a paper error: its limit is 0.0714, docs/ACTIVE.md §5), the ordering of
// §5.2 (ONLINESCO < ONLINEELO < the averaging methods at k = 3), and the pairwise methods
// ending at GRE 0.
TEST(ActiveEvaluationReproTest, Table3Atari) {
  ScoreGeneratorOptions atari{.kind = GeneratorKind::kTable};
  {
    auto content =
        io::ReadFileContent(absl::StrCat(RATINGD_TEST_DATA, "/atari/atari_agent57_table.txt"));
    ASSERT_TRUE(content.ok());
    auto table = io::ParseScoreTable(*content, "atari_agent57_table.txt", {});
    ASSERT_TRUE(table.ok());
    atari.table_agents = table->agents;
    atari.table_means = table->means;
    atari.table_stds = table->stds;
  }
  const Agre sco = RunAll(atari, "online-sco");
  const Agre elo = RunAll(atari, "online-elo");  // K = 1, the default
  const Agre batch_elo = RunAll(atari, "batch-elo");
  const Agre ucb = RunAll(atari, "basic-ucb");
  const Agre uniform = RunAll(atari, "uniform-averaging");
  const Agre online_ml = RunAll(atari, "online-maximal-lotteries");
  ExpectNearPaper(sco.k3, 0.025931, "ONLINESCO k=3");
  ExpectNearPaper(sco.k8, 0.009034, "ONLINESCO k=8");
  ExpectNearPaper(elo.k3, 0.037259, "ONLINEELO k=3");
  ExpectNearPaper(elo.k8, 0.012504, "ONLINEELO k=8");
  ExpectNearPaper(batch_elo.k3, 0.032967, "BATCHELO k=3");
  ExpectNearPaper(batch_elo.k8, 0.010907, "BATCHELO k=8");
  ExpectNearPaper(ucb.k3, 0.241976, "BASICUCB k=3");
  ExpectNearPaper(ucb.k8, 0.074383, "BASICUCB k=8");
  ExpectNearPaper(uniform.k3, 0.242354, "UNIFORMAVERAGING k=3");
  ExpectNearPaper(online_ml.k3, 0.135168, "ONLINEMAXLOT k=3");
  ExpectNearPaper(online_ml.k8, 0.057263, "ONLINEMAXLOT k=8");
  EXPECT_LT(sco.k3, elo.k3);
  EXPECT_LT(elo.k3, std::min(uniform.k3, ucb.k3));
  // The limit of the pairwise win rates ranks as the truth, so the pairwise methods end at
  // GRE 0: SCO and Bradley–Terry in >= 95% of the runs. Online Elo with a constant K keeps
  // a noise floor (its ratings keep moving by up to K a sample, and the truth's top two
  // are close), so it ends at 0 in most runs, not all (87% here).
  EXPECT_GE(sco.final_zero_k8, 0.95);
  EXPECT_GE(batch_elo.final_zero_k8, 0.95);
  EXPECT_GE(elo.final_zero_k8, 0.8);
}

// Table 5 (App. C.1, 8 clones of the 8 Mallows agents, errors on the originals): ε is not
// given, so only the ordering and the magnitude are checked. Clones must not wreck the
// methods: UNIFORMAVERAGING and BATCHELO stay within 3x of their Table 2 values (0.003 and
// 0.009 at k = 3), and UNIFORMAVERAGING stays ahead of BATCHELO (Table 5: 0.0052 < 0.0166).
TEST(ActiveEvaluationReproTest, Table5ClonesByOrdering) {
  const ScoreGeneratorOptions clones{.kind = GeneratorKind::kClones, .phi = 0.3};
  const Agre uniform = RunAll(clones, "uniform-averaging");
  const Agre elo = RunAll(clones, "batch-elo");
  EXPECT_LE(uniform.k3, 3 * 0.003);
  EXPECT_LE(elo.k3, 3 * 0.009);
  EXPECT_LT(uniform.k3, elo.k3);
}

}  // namespace
}  // namespace ratings::active
