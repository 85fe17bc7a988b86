// Exact maximal lotteries checked against independent computations: the definition
// (p^T M >= 0 against every pure strategy), a brute-force enumeration of the vertices of
// the set of maximal lotteries (small games), the maximum entropy over that set by
// exponentiated-gradient ascent on the vertices' weights plus random sampling, and
// symmetric games solved by hand.
#include "ratings/voting/exact_lottery.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "Eigen/LU"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;
using ratings::testing::StatusIs;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Eigen::MatrixXd Skew(std::initializer_list<std::initializer_list<double>> upper_rows) {
  // Rows given in full; checked skew-symmetric by the solver.
  const auto n = static_cast<Eigen::Index>(upper_rows.size());
  Eigen::MatrixXd m(n, n);
  Eigen::Index i = 0;
  for (const auto& row : upper_rows) {
    Eigen::Index j = 0;
    for (double x : row) m(i, j++) = x;
    ++i;
  }
  return m;
}

// Random skew-symmetric margins with entries in {-k..k}; small k gives many ties.
Eigen::MatrixXd RandomMargins(Eigen::Index n, int k, std::mt19937& rng) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
  std::uniform_int_distribution<int> entry(-k, k);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = i + 1; j < n; ++j) {
      m(i, j) = entry(rng);
      m(j, i) = -m(i, j);
    }
  }
  return m;
}

double Entropy(const Eigen::VectorXd& x) {
  double h = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (x(i) > 0.0) h -= x(i) * std::log(x(i));
  }
  return h;
}

// The definition: a lottery, and no pure strategy gains against it.
void ExpectMaximal(const Eigen::MatrixXd& m, const std::vector<double>& lottery) {
  const Eigen::VectorXd p = Eigen::Map<const Eigen::VectorXd>(lottery.data(), m.rows());
  EXPECT_NEAR(p.sum(), 1.0, 1e-9);
  EXPECT_GE(p.minCoeff(), 0.0);
  const double scale = std::max(1.0, m.cwiseAbs().maxCoeff());
  EXPECT_GE((m.transpose() * p).minCoeff(), -1e-9 * scale);
}

// Brute force: every vertex of {p >= 0, sum p = 1, M^T p >= 0}, from every choice of n-1
// tight inequalities among the 2n (p_i = 0 or (M^T p)_j = 0) with the sum row.
std::vector<Eigen::VectorXd> Vertices(const Eigen::MatrixXd& m) {
  const int n = static_cast<int>(m.rows());
  Eigen::MatrixXd rows(2 * n, n);
  rows.topRows(n) = Eigen::MatrixXd::Identity(n, n);
  rows.bottomRows(n) = m.transpose();
  std::vector<Eigen::VectorXd> out;
  std::vector<int> pick(2 * n, 0);
  std::fill(pick.end() - (n - 1), pick.end(), 1);
  do {
    Eigen::MatrixXd a(n, n);
    int r = 0;
    for (int c = 0; c < 2 * n; ++c) {
      if (pick[c]) a.row(r++) = rows.row(c);
    }
    a.row(n - 1).setOnes();
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
    b(n - 1) = 1.0;
    Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
    if (lu.rank() < n) continue;
    const Eigen::VectorXd p = lu.solve(b);
    if ((rows * p).minCoeff() < -1e-9) continue;
    bool seen = false;
    for (const auto& v : out) seen |= (v - p).cwiseAbs().maxCoeff() < 1e-9;
    if (!seen) out.push_back(p);
  } while (std::next_permutation(pick.begin(), pick.end()));
  return out;
}

// Maximum entropy over the convex hull of `vertices` by exponentiated-gradient ascent on
// the weights (an independent optimiser; coordinates zero in every vertex are skipped).
Eigen::VectorXd MaxEntropyOverHull(const std::vector<Eigen::VectorXd>& vertices) {
  const size_t k = vertices.size();
  std::vector<double> w(k, 1.0 / static_cast<double>(k));
  Eigen::VectorXd x;
  for (int it = 0; it < 200000; ++it) {
    x = Eigen::VectorXd::Zero(vertices[0].size());
    for (size_t i = 0; i < k; ++i) x += w[i] * vertices[i];
    Eigen::VectorXd grad(x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j)
      grad(j) = x(j) > 1e-300 ? -std::log(x(j)) - 1.0 : 0.0;
    double total = 0.0;
    for (size_t i = 0; i < k; ++i) {
      w[i] *= std::exp(0.05 * vertices[i].dot(grad));
      total += w[i];
    }
    for (double& wi : w) wi /= total;
  }
  return x;
}

TEST(ExactLotteryTest, RockPaperScissorsIsUniform) {
  // By hand: the unique equilibrium of rock-paper-scissors.
  const absl::StatusOr<ExactLottery> ml =
      SolveMaximalLottery(Skew({{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}));
  ASSERT_THAT(ml, IsOk()) << ml.status();
  EXPECT_TRUE(ml->unique);
  EXPECT_THAT(ml->lottery, ElementsAre(DoubleNear(1.0 / 3, 1e-12), DoubleNear(1.0 / 3, 1e-12),
                                       DoubleNear(1.0 / 3, 1e-12)));
  EXPECT_LT(ml->exploitability, 1e-12);
}

TEST(ExactLotteryTest, ClonedRockSharesItsThirdEqually) {
  // R1, R2 (clones, tied), P, S. Maximal: p(R1) + p(R2) = 1/3, p(P) = p(S) = 1/3 (by
  // hand); maximum entropy splits the clones' third equally.
  const absl::StatusOr<ExactLottery> ml =
      SolveMaximalLottery(Skew({{0, 0, -1, 1}, {0, 0, -1, 1}, {1, 1, 0, -1}, {-1, -1, 1, 0}}));
  ASSERT_THAT(ml, IsOk()) << ml.status();
  EXPECT_FALSE(ml->unique);
  EXPECT_THAT(ml->lottery, ElementsAre(DoubleNear(1.0 / 6, 1e-9), DoubleNear(1.0 / 6, 1e-9),
                                       DoubleNear(1.0 / 3, 1e-9), DoubleNear(1.0 / 3, 1e-9)));
}

TEST(ExactLotteryTest, AllTiesGiveTheUniformLottery) {
  const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(Eigen::MatrixXd::Zero(4, 4));
  ASSERT_THAT(ml, IsOk());
  EXPECT_THAT(ml->lottery, ElementsAre(0.25, 0.25, 0.25, 0.25));
  EXPECT_FALSE(ml->unique);
}

TEST(ExactLotteryTest, TwoTiedWinnersGetOneHalfEach) {
  // A and B tie and both beat C and D: any mix of A and B is maximal (by hand).
  const absl::StatusOr<ExactLottery> ml =
      SolveMaximalLottery(Skew({{0, 0, 2, 5}, {0, 0, 1, 3}, {-2, -1, 0, 4}, {-5, -3, -4, 0}}));
  ASSERT_THAT(ml, IsOk());
  EXPECT_THAT(ml->lottery, ElementsAre(DoubleNear(0.5, 1e-9), DoubleNear(0.5, 1e-9),
                                       DoubleNear(0, 1e-12), DoubleNear(0, 1e-12)));
}

TEST(ExactLotteryTest, EmptyAndSingleAgentGames) {
  const absl::StatusOr<ExactLottery> none = SolveMaximalLottery(Eigen::MatrixXd(0, 0));
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->lottery.empty());
  const absl::StatusOr<ExactLottery> one = SolveMaximalLottery(Eigen::MatrixXd::Zero(1, 1));
  ASSERT_THAT(one, IsOk());
  EXPECT_THAT(one->lottery, ElementsAre(1.0));
  EXPECT_TRUE(one->unique);
}

TEST(ExactLotteryTest, RefusesNonSkewAndOversizedGames) {
  EXPECT_THAT(SolveMaximalLottery(Skew({{0, 1}, {1, 0}})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("skew-symmetric")));
  EXPECT_THAT(SolveMaximalLottery(Skew({{0, NAN}, {NAN, 0}})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finite")));
  EXPECT_THAT(SolveMaximalLottery(Eigen::MatrixXd::Zero(5, 5), {.max_agents = 4}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("limit of 4")));
}

// Random small games with many ties: our lottery is maximal, lies in the hull of the
// brute-force vertices, has at least the entropy of every vertex and of random points of
// the hull, and agrees with an independent maximum-entropy optimiser.
TEST(ExactLotteryTest, MaximumEntropyAgreesWithBruteForceOnRandomTiedGames) {
  std::mt19937 rng(20261121);
  int non_unique = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Eigen::Index n = 3 + trial % 4;
    const Eigen::MatrixXd m = RandomMargins(n, 1, rng);
    const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(m);
    ASSERT_THAT(ml, IsOk()) << ml.status();
    ExpectMaximal(m, ml->lottery);
    const Eigen::VectorXd p = Eigen::Map<const Eigen::VectorXd>(ml->lottery.data(), n);
    const std::vector<Eigen::VectorXd> vertices = Vertices(m);
    ASSERT_FALSE(vertices.empty());
    EXPECT_EQ(ml->unique, vertices.size() == 1) << m;
    non_unique += !ml->unique;
    const double h = Entropy(p);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int s = 0; s < 500; ++s) {
      Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
      double total = 0.0;
      for (const auto& v : vertices) {
        const double w = -std::log(u(rng) + 1e-300);
        x += w * v;
        total += w;
      }
      EXPECT_GE(h, Entropy(x / total) - 1e-9) << m;
    }
    const Eigen::VectorXd reference = MaxEntropyOverHull(vertices);
    EXPECT_LT((p - reference).cwiseAbs().maxCoeff(), 1e-3)
        << m << "\nours " << p.transpose() << "\nreference " << reference.transpose();
    EXPECT_GE(h, Entropy(reference) - 1e-9);
  }
  EXPECT_GT(non_unique, 10);  // the test exercised the entropy step
}

// With an odd number of complete strict votes every margin is odd, and the maximal
// lottery is unique (Laffond, Laslier & Le Breton 1997); brute force finds one vertex.
TEST(ExactLotteryTest, OddMarginsGiveTheUniqueVertex) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::Index n = 3 + trial % 4;
    Eigen::MatrixXd m = RandomMargins(n, 3, rng);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < n; ++j) {
        if (i != j) m(i, j) = 2 * m(i, j) + (i < j ? 1 : -1);
      }
    }
    const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(m);
    ASSERT_THAT(ml, IsOk());
    EXPECT_TRUE(ml->unique);
    const std::vector<Eigen::VectorXd> vertices = Vertices(m);
    ASSERT_EQ(vertices.size(), 1u);
    for (Eigen::Index i = 0; i < n; ++i) EXPECT_NEAR(ml->lottery[i], vertices[0](i), 1e-9);
  }
}

// Larger random games: maximal by the definition.
TEST(ExactLotteryTest, LargeRandomGamesAreMaximal) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 3; ++trial) {
    const Eigen::Index n = 40;
    Eigen::MatrixXd m = RandomMargins(n, 20, rng);
    const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(m);
    ASSERT_THAT(ml, IsOk());
    ExpectMaximal(m, ml->lottery);
    EXPECT_LT(ml->exploitability, 1e-9);
  }
}

// The benchmark's shape (dense odd margins), smaller: a unique lottery with a support of
// about half the agents, read off the LP exactly (Clp's default tolerances misread it).
TEST(ExactLotteryTest, DenseOddMarginsAreSolvedToRounding) {
  std::mt19937 rng(400);
  const Eigen::Index n = 200;
  Eigen::MatrixXd m = RandomMargins(n, 500, rng);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      if (i != j) m(i, j) = 2 * m(i, j) + (i < j ? 1 : -1);
    }
  }
  const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(m);
  ASSERT_THAT(ml, IsOk());
  ExpectMaximal(m, ml->lottery);
  EXPECT_TRUE(ml->unique);
  EXPECT_LT(ml->exploitability, 1e-9);
}

TEST(ExactLotteryTest, SymmetricAgentsGetEqualProbability) {
  // Five-cycle (each agent beats the next two) tensored with three identical copies of
  // each agent tying among themselves: 15 agents, symmetric under rotation and copy
  // swaps, so every agent gets 1/15 (the maximum-entropy lottery is invariant).
  const int base = 5, copies = 3, n = base * copies;
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int d = ((j / copies) - (i / copies) + base) % base;
      m(i, j) = d == 1 || d == 2 ? 1 : d == 0 ? 0 : -1;
    }
  }
  const absl::StatusOr<ExactLottery> ml = SolveMaximalLottery(m);
  ASSERT_THAT(ml, IsOk());
  for (double p : ml->lottery) {
    EXPECT_NEAR(p, 1.0 / n, 1e-9);
    EXPECT_EQ(p, ml->lottery[0]) << absl::StrFormat("%.17g %.17g", p, ml->lottery[0]);
  }
}

}  // namespace
}  // namespace ratings::voting
