// Nash averaging ([AE] §4.2.1; Balduzzi et al. 2018) checked against independent
// computations: games solved by hand (indifference equations, dominance, clones, a
// continuum whose maximum-entropy point is found by calculus), support enumeration for
// random 2×2, 2×3 and 3×2 games with real entries (a unique equilibrium), and for games with
// two tasks or two agents and small integer entries (continua of equilibria) the closed
// form of the maximum-entropy point: the optimal set of the two-strategy player is an
// interval [lo, hi] of its first probability, found from the breakpoints of its
// piecewise-linear guarantee, and the entropy is maximised at the point of it closest to ½.
#include "ratings/voting/nash_averaging.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "Eigen/LU"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ratings::testing::StatusIs;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pointwise;

constexpr double kTol = 1e-9;

// Rows are tasks, columns agents.
Eigen::MatrixXd Scores(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd s(static_cast<Eigen::Index>(rows.size()),
                    static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index v = 0;
  for (const auto& row : rows) {
    Eigen::Index a = 0;
    for (double x : row) s(v, a++) = x;
    ++v;
  }
  return s;
}

NashAveraging Solve(const Eigen::MatrixXd& scores) {
  absl::StatusOr<NashAveraging> na = SolveNashAveraging(scores);
  EXPECT_TRUE(na.ok()) << na.status();
  return na.ok() ? *na : NashAveraging{};
}

Eigen::VectorXd ToEigen(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// The certificate recomputed from the strategies: the larger gain of a pure deviation.
double Exploitability(const Eigen::MatrixXd& s, const NashAveraging& na) {
  const Eigen::VectorXd x = ToEigen(na.agent_strategy), y = ToEigen(na.task_strategy);
  const double value = y.dot(s * x);
  return std::max((s.transpose() * y).maxCoeff() - value, value - (s * x).minCoeff());
}

TEST(NashAveragingTest, TwoByTwoMixedEquilibriumByHand) {
  // Agent 0 scores 3 on task 0 and 0 on task 1; agent 1 scores 1 and 2. No saddle point
  // (maximin 1 < minimax 2). Agent mix (p, 1-p): task 0 pays 1 + 2p, task 1 pays 2 - 2p,
  // equal at p = 1/4, value 3/2. Task mix (q, 1-q): agent 0 gets 3q, agent 1 gets 2 - q,
  // equal at q = 1/2.
  const NashAveraging na = Solve(Scores({{3, 1}, {0, 2}}));
  EXPECT_THAT(na.agent_strategy, ElementsAre(DoubleNear(0.25, kTol), DoubleNear(0.75, kTol)));
  EXPECT_THAT(na.task_strategy, ElementsAre(DoubleNear(0.5, kTol), DoubleNear(0.5, kTol)));
  EXPECT_NEAR(na.value, 1.5, kTol);
  EXPECT_THAT(na.rating, ElementsAre(DoubleNear(1.5, kTol), DoubleNear(1.5, kTol)));
  // Both agents are in the support: their ratings are the value itself, so they tie.
  EXPECT_EQ(na.rating[0], na.rating[1]);
  EXPECT_LE(na.exploitability, kTol);
}

TEST(NashAveragingTest, DominatedAgentGetsZero) {
  // Agent 2 (0.5, -1) is strictly dominated by agent 1 (1, 2): the game of the first test
  // plus agent 2, whose rating is ½·0.5 + ½·(-1) = -0.25.
  const NashAveraging na = Solve(Scores({{3, 1, 0.5}, {0, 2, -1}}));
  EXPECT_THAT(na.agent_strategy, ElementsAre(DoubleNear(0.25, kTol), DoubleNear(0.75, kTol), 0.0));
  EXPECT_THAT(na.task_strategy, ElementsAre(DoubleNear(0.5, kTol), DoubleNear(0.5, kTol)));
  EXPECT_THAT(na.rating,
              ElementsAre(DoubleNear(1.5, kTol), DoubleNear(1.5, kTol), DoubleNear(-0.25, kTol)));
}

TEST(NashAveragingTest, ClonedTasksShareTheTaskPlayersMassEqually) {
  // Task 0 twice: every split y0 + y1 = 1/2 is an equilibrium; maximum entropy splits evenly.
  const NashAveraging na = Solve(Scores({{3, 1}, {3, 1}, {0, 2}}));
  EXPECT_THAT(na.task_strategy,
              ElementsAre(DoubleNear(0.25, kTol), DoubleNear(0.25, kTol), DoubleNear(0.5, kTol)));
  EXPECT_EQ(na.task_strategy[0], na.task_strategy[1]);
  EXPECT_THAT(na.agent_strategy, ElementsAre(DoubleNear(0.25, kTol), DoubleNear(0.75, kTol)));
  EXPECT_THAT(na.rating, ElementsAre(DoubleNear(1.5, kTol), DoubleNear(1.5, kTol)));
}

TEST(NashAveragingTest, ClonedAgentsShareTheAgentPlayersMassEqually) {
  // Agent 1 twice: x1 + x2 = 3/4 in every equilibrium; maximum entropy: 3/8 each. The
  // ratings do not change (cloning invariance of the task strategy and the ratings).
  const NashAveraging na = Solve(Scores({{3, 1, 1}, {0, 2, 2}}));
  EXPECT_THAT(na.agent_strategy, ElementsAre(DoubleNear(0.25, kTol), DoubleNear(0.375, kTol),
                                             DoubleNear(0.375, kTol)));
  EXPECT_EQ(na.agent_strategy[1], na.agent_strategy[2]);
  EXPECT_THAT(na.task_strategy, ElementsAre(DoubleNear(0.5, kTol), DoubleNear(0.5, kTol)));
  EXPECT_THAT(na.rating,
              ElementsAre(DoubleNear(1.5, kTol), DoubleNear(1.5, kTol), DoubleNear(1.5, kTol)));
  EXPECT_EQ(na.rating[1], na.rating[2]);
}

TEST(NashAveragingTest, ContinuumPicksTheMaximumEntropyPoint) {
  // Tasks 0 and 1 are matching pennies, task 2 pays ½ to both agents. The agent player must
  // play (½, ½) (value ½); the task player's equilibria are y = (t, t, 1 - 2t), t in [0, ½].
  // dH/dt = -2 ln t + 2 ln(1 - 2t) = 0 at t = 1 - 2t: t = 1/3, the uniform strategy.
  const Eigen::MatrixXd s = Scores({{1, 0}, {0, 1}, {0.5, 0.5}});
  const NashAveraging na = Solve(s);
  EXPECT_THAT(na.task_strategy, Pointwise(DoubleNear(kTol), std::vector<double>(3, 1.0 / 3)));
  EXPECT_THAT(na.agent_strategy, ElementsAre(DoubleNear(0.5, kTol), DoubleNear(0.5, kTol)));
  EXPECT_NEAR(na.value, 0.5, kTol);
  // And a grid over the continuum agrees: no t does better than the one returned.
  auto entropy = [](double t) {
    const double u = 1.0 - 2.0 * t;
    return -2.0 * t * std::log(t) - (u > 0.0 ? u * std::log(u) : 0.0);
  };
  double best_t = 0.0, best_h = -1.0;
  for (int k = 1; k <= 50000; ++k) {
    const double t = 0.5 * k / 50000.0;
    if (entropy(t) > best_h) best_h = entropy(t), best_t = t;
  }
  EXPECT_NEAR(na.task_strategy[0], best_t, 1e-4);
}

TEST(NashAveragingTest, MatchingPenniesAndRockPaperScissors) {
  NashAveraging na = Solve(Scores({{1, 0}, {0, 1}}));
  EXPECT_THAT(na.agent_strategy, ElementsAre(0.5, 0.5));
  EXPECT_THAT(na.task_strategy, ElementsAre(0.5, 0.5));
  EXPECT_THAT(na.rating, ElementsAre(0.5, 0.5));
  EXPECT_NEAR(na.value, 0.5, kTol);
  // Tasks × agents: agent a scores 1 on the task it beats, -1 on the one that beats it.
  na = Solve(Scores({{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}));
  EXPECT_THAT(na.agent_strategy, Pointwise(DoubleNear(kTol), std::vector<double>(3, 1.0 / 3)));
  EXPECT_THAT(na.task_strategy, Pointwise(DoubleNear(kTol), std::vector<double>(3, 1.0 / 3)));
  EXPECT_NEAR(na.value, 0.0, kTol);
}

TEST(NashAveragingTest, OneTaskOrOneAgent) {
  // One task: the agent player spreads over the best agents.
  NashAveraging na = Solve(Scores({{1, 3, 3, 2}}));
  EXPECT_THAT(na.agent_strategy, ElementsAre(0.0, 0.5, 0.5, 0.0));
  EXPECT_THAT(na.task_strategy, ElementsAre(1.0));
  EXPECT_THAT(na.rating, ElementsAre(1.0, 3.0, 3.0, 2.0));
  EXPECT_NEAR(na.value, 3.0, kTol);
  // One agent: the task player spreads over the hardest tasks.
  na = Solve(Scores({{2}, {1}, {1}}));
  EXPECT_THAT(na.task_strategy, ElementsAre(0.0, 0.5, 0.5));
  EXPECT_THAT(na.rating, ElementsAre(DoubleNear(1.0, kTol)));
}

TEST(NashAveragingTest, AllEqualScoresGiveUniformStrategies) {
  const NashAveraging na = Solve(Eigen::MatrixXd::Constant(3, 4, 7.5));
  EXPECT_THAT(na.agent_strategy, ElementsAre(0.25, 0.25, 0.25, 0.25));
  EXPECT_THAT(na.task_strategy, Pointwise(DoubleNear(1e-15), std::vector<double>(3, 1.0 / 3)));
  EXPECT_THAT(na.rating, ElementsAre(7.5, 7.5, 7.5, 7.5));
  EXPECT_EQ(na.value, 7.5);
  EXPECT_EQ(na.exploitability, 0.0);
}

// Support enumeration: every pair of supports I (agents), J (tasks) of equal size whose
// indifference equations give non-negative strategies that are mutual best responses.
// For games with real random entries there is exactly one.
struct Equilibrium {
  Eigen::VectorXd x, y;
  double value = 0;
};
std::vector<Equilibrium> SupportEnumeration(const Eigen::MatrixXd& s) {
  const Eigen::MatrixXd p = s.transpose();  // agent player's payoff, agents × tasks
  const int m = static_cast<int>(p.rows()), n = static_cast<int>(p.cols());
  std::vector<Equilibrium> found;
  for (int rows = 1; rows < (1 << m); ++rows) {
    for (int cols = 1; cols < (1 << n); ++cols) {
      std::vector<int> in, jn;
      for (int i = 0; i < m; ++i) {
        if (rows >> i & 1) in.push_back(i);
      }
      for (int j = 0; j < n; ++j) {
        if (cols >> j & 1) jn.push_back(j);
      }
      if (in.size() != jn.size()) continue;
      const int k = static_cast<int>(in.size());
      // x on I: sum_i x_i p(i, j) - v = 0 for j in J, sum x = 1; y on J likewise.
      Eigen::MatrixXd ax = Eigen::MatrixXd::Zero(k + 1, k + 1), ay = ax;
      Eigen::VectorXd b = Eigen::VectorXd::Zero(k + 1);
      b(k) = 1.0;
      for (int r = 0; r < k; ++r) {
        for (int c = 0; c < k; ++c) {
          ax(r, c) = p(in[c], jn[r]);
          ay(r, c) = p(in[r], jn[c]);
        }
        ax(r, k) = ay(r, k) = -1.0;
        ax(k, r) = ay(k, r) = 1.0;
      }
      Eigen::FullPivLU<Eigen::MatrixXd> lx(ax), ly(ay);
      if (!lx.isInvertible() || !ly.isInvertible()) continue;
      const Eigen::VectorXd sx = lx.solve(b), sy = ly.solve(b);
      Equilibrium e{Eigen::VectorXd::Zero(m), Eigen::VectorXd::Zero(n), sx(k)};
      for (int c = 0; c < k; ++c) e.x(in[c]) = sx(c), e.y(jn[c]) = sy(c);
      if (e.x.minCoeff() < -1e-12 || e.y.minCoeff() < -1e-12) continue;
      if ((p.transpose() * e.x).minCoeff() < e.value - 1e-12) continue;
      if ((p * e.y).maxCoeff() > e.value + 1e-12) continue;
      found.push_back(e);
    }
  }
  return found;
}

TEST(NashAveragingTest, MatchesSupportEnumerationOnRandomSmallGames) {
  std::mt19937 rng(20240611);
  std::uniform_real_distribution<double> entry(-5.0, 5.0);
  for (const auto& [tasks, agents] : {std::pair{2, 2}, {2, 3}, {3, 2}}) {
    for (int trial = 0; trial < 100; ++trial) {
      Eigen::MatrixXd s(tasks, agents);
      for (Eigen::Index i = 0; i < s.size(); ++i) s(i) = entry(rng);
      const std::vector<Equilibrium> expected = SupportEnumeration(s);
      ASSERT_EQ(expected.size(), 1u) << s;
      const NashAveraging na = Solve(s);
      SCOPED_TRACE(::testing::Message() << "scores\n" << s);
      EXPECT_NEAR(na.value, expected[0].value, 1e-9);
      for (int a = 0; a < agents; ++a) EXPECT_NEAR(na.agent_strategy[a], expected[0].x(a), 1e-9);
      for (int v = 0; v < tasks; ++v) EXPECT_NEAR(na.task_strategy[v], expected[0].y(v), 1e-9);
    }
  }
}

// The two-strategy player's maximum-entropy optimal probability of its first strategy.
// `guarantee(q)` is its worst case when it plays (q, 1 - q): a piecewise-linear function
// whose pieces are `lines` (slope, intercept); `maximise` says whether the player maximises
// a minimum (agents) or minimises a maximum (tasks). The optimum set is an interval whose
// ends are among 0, 1 and the crossings of two lines.
double MaxEntropyOfTwo(const std::vector<std::pair<double, double>>& lines, bool maximise) {
  auto guarantee = [&](double q) {
    double g = maximise ? std::numeric_limits<double>::infinity()
                        : -std::numeric_limits<double>::infinity();
    for (const auto& [slope, intercept] : lines) {
      g = maximise ? std::min(g, slope * q + intercept) : std::max(g, slope * q + intercept);
    }
    return g;
  };
  std::vector<double> candidates = {0.0, 1.0};
  for (size_t i = 0; i < lines.size(); ++i) {
    for (size_t j = i + 1; j < lines.size(); ++j) {
      const double ds = lines[i].first - lines[j].first;
      if (ds == 0.0) continue;
      const double q = (lines[j].second - lines[i].second) / ds;
      if (q > 0.0 && q < 1.0) candidates.push_back(q);
    }
  }
  double best = guarantee(candidates[0]);
  for (double q : candidates)
    best = maximise ? std::max(best, guarantee(q)) : std::min(best, guarantee(q));
  double lo = 1.0, hi = 0.0;
  for (double q : candidates) {
    if (std::abs(guarantee(q) - best) <= 1e-12) lo = std::min(lo, q), hi = std::max(hi, q);
  }
  return std::clamp(0.5, lo, hi);
}

TEST(NashAveragingTest, MaximumEntropyOnContinuaOfTwoStrategyPlayers) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> entry(0, 3);  // small integers: many ties, continua
  int continua = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const bool two_tasks = trial % 2 == 0;
    const int others = 2 + trial % 4;
    Eigen::MatrixXd s = two_tasks ? Eigen::MatrixXd(2, others) : Eigen::MatrixXd(others, 2);
    for (Eigen::Index i = 0; i < s.size(); ++i) s(i) = entry(rng);
    SCOPED_TRACE(::testing::Message() << "scores\n" << s);
    const NashAveraging na = Solve(s);
    std::vector<std::pair<double, double>> lines;
    double expected = 0.0;
    if (two_tasks) {  // task mix (q, 1-q): agent a gets q s(0, a) + (1-q) s(1, a)
      for (int a = 0; a < others; ++a) lines.emplace_back(s(0, a) - s(1, a), s(1, a));
      expected = MaxEntropyOfTwo(lines, /*maximise=*/false);
      EXPECT_NEAR(na.task_strategy[0], expected, 1e-9);
    } else {  // agent mix (p, 1-p): task v pays p s(v, 0) + (1-p) s(v, 1)
      for (int v = 0; v < others; ++v) lines.emplace_back(s(v, 0) - s(v, 1), s(v, 1));
      expected = MaxEntropyOfTwo(lines, /*maximise=*/true);
      EXPECT_NEAR(na.agent_strategy[0], expected, 1e-9);
    }
    if (expected != 0.0 && expected != 1.0 && std::abs(expected - 0.5) > 1e-12) ++continua;
    EXPECT_LE(na.exploitability, 1e-9);
  }
  EXPECT_GT(continua, 0);  // some optimum sets were intervals cut off before ½
}

TEST(NashAveragingTest, ExploitabilityIsACertificate) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> entry(0, 4);
  std::uniform_real_distribution<double> real(-100.0, 100.0);
  for (int trial = 0; trial < 40; ++trial) {
    Eigen::MatrixXd s(3 + trial % 7, 2 + trial % 5);
    for (Eigen::Index i = 0; i < s.size(); ++i) s(i) = trial % 2 ? entry(rng) : real(rng);
    const NashAveraging na = Solve(s);
    SCOPED_TRACE(::testing::Message() << "scores\n" << s);
    const double range = s.maxCoeff() - s.minCoeff();
    EXPECT_LE(na.exploitability, 1e-9 * range);
    EXPECT_NEAR(na.exploitability, std::max(0.0, Exploitability(s, na)), 1e-12 * range);
    EXPECT_NEAR(ToEigen(na.agent_strategy).sum(), 1.0, 1e-11);
    EXPECT_NEAR(ToEigen(na.task_strategy).sum(), 1.0, 1e-11);
    const Eigen::VectorXd theta = s.transpose() * ToEigen(na.task_strategy);
    for (Eigen::Index a = 0; a < s.cols(); ++a) EXPECT_NEAR(na.rating[a], theta(a), 1e-9 * range);
  }
  // A strategy pair that is not an equilibrium is caught by the recomputation used above.
  NashAveraging off;
  off.agent_strategy = {1.0, 0.0};
  off.task_strategy = {1.0, 0.0};
  EXPECT_NEAR(Exploitability(Scores({{3, 1}, {0, 2}}), off), 3.0, 1e-15);
}

TEST(NashAveragingTest, AffineChangeOfScoresKeepsTheStrategies) {
  const Eigen::MatrixXd s = Scores({{1, 0, 2}, {0, 1, 1}, {2, 2, 0}, {1, 1, 1}});
  const NashAveraging na = Solve(s);
  const NashAveraging moved = Solve((s * 40.0).array() - 7.0);
  EXPECT_THAT(moved.agent_strategy, Pointwise(DoubleNear(1e-11), na.agent_strategy));
  EXPECT_THAT(moved.task_strategy, Pointwise(DoubleNear(1e-11), na.task_strategy));
  EXPECT_NEAR(moved.value, 40.0 * na.value - 7.0, 1e-9);
}

TEST(NashAveragingTest, Errors) {
  EXPECT_THAT(SolveNashAveraging(Eigen::MatrixXd(0, 3)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("0 tasks x 3 agents")));
  EXPECT_THAT(SolveNashAveraging(Eigen::MatrixXd(2, 0)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at least one task")));
  Eigen::MatrixXd s = Scores({{1, 2}, {3, 4}});
  s(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(SolveNashAveraging(s).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("score of agent 0 on task 1 is nan, not finite")));
  s(1, 0) = std::numeric_limits<double>::infinity();
  EXPECT_THAT(SolveNashAveraging(s).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not finite")));
  EXPECT_THAT(
      SolveNashAveraging(Eigen::MatrixXd::Zero(5, 2), {.max_size = 4}).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("5 tasks is above the limit of 4")));
  EXPECT_THAT(
      SolveNashAveraging(Eigen::MatrixXd::Zero(2, 5), {.max_size = 4}).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("5 agents is above the limit of 4")));
  EXPECT_THAT(SolveNashAveraging(Eigen::MatrixXd::Zero(2, 2), {.tolerance = 0.0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tolerance")));
}

}  // namespace
}  // namespace ratings::voting

namespace ratings::voting {
namespace {

// A degenerate game that once made Clp report the agent player's LP infeasible after the
// value was fixed: the running means of a clone experiment ([AE] App. C.1, 50 tasks x 16
// agents) during its burn-in, where unsampled cells all hold 50 (tests/data/nash/README.md).
// The returned strategies must be an equilibrium: the certificate is recomputed here from
// them, against every pure deviation of either player.
TEST(NashAveragingTest, DegenerateCloneGameSolves) {
  std::FILE* file =
      std::fopen((std::string(RATINGD_TEST_DATA) + "/nash/clones_run14_means.txt").c_str(), "r");
  ASSERT_NE(file, nullptr);
  Eigen::MatrixXd scores(50, 16);
  for (int v = 0; v < 50; ++v) {
    for (int a = 0; a < 16; ++a) ASSERT_EQ(std::fscanf(file, "%lf", &scores(v, a)), 1);
  }
  std::fclose(file);
  absl::StatusOr<NashAveraging> nash = SolveNashAveraging(scores);
  ASSERT_TRUE(nash.ok()) << nash.status();
  const Eigen::Map<const Eigen::VectorXd> x(nash->agent_strategy.data(), 16);
  const Eigen::Map<const Eigen::VectorXd> y(nash->task_strategy.data(), 50);
  EXPECT_NEAR(x.sum(), 1.0, 1e-12);
  EXPECT_NEAR(y.sum(), 1.0, 1e-12);
  const double value = y.dot(scores * x);
  const double range = scores.maxCoeff() - scores.minCoeff();
  EXPECT_LE((scores.transpose() * y).maxCoeff() - value, 1e-7 * range);  // no better agent
  EXPECT_LE(value - (scores * x).minCoeff(), 1e-7 * range);              // no worse task
}

}  // namespace
}  // namespace ratings::voting
