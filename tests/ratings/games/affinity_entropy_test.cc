// Affinity entropy ([RE] §3.3, Def. 1, App. B). Expected values are closed forms: Eq. 53's
// maximum with exact clone groups, and hand computations of Eq. 9 noted at each test.
#include "ratings/games/affinity_entropy.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "ratings/games/flush_denormals.h"

namespace ratings::games {
namespace {

// The kernel of exact clone groups: K(a, b) = 1 iff a and b are in the same group.
Eigen::MatrixXd CloneKernel(const std::vector<int>& group) {
  const auto n = static_cast<Eigen::Index>(group.size());
  Eigen::MatrixXd k(n, n);
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = 0; b < n; ++b) k(a, b) = group[a] == group[b] ? 1.0 : 0.0;
  }
  return k;
}

TEST(AffinityEntropyTest, RockPaperScissorsWithRockDuplicatedByHand) {
  // Actions R1, R2, P, S. U's rock block is 2^{-1/2}; uniform: sum (Ux)^2 = 2/8 + 2/16,
  // H = 0.625; (1/6, 1/6, 1/3, 1/3): sum = 2/18 + 2/9 = 1/3, H = 2/3, the maximum.
  const Eigen::MatrixXd u = AffinityMatrix(CloneKernel({0, 0, 1, 2}), 1.0);
  EXPECT_NEAR(u(0, 0), 1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(u(1, 0), 1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(u(2, 2), 1.0, 1e-15);
  EXPECT_NEAR(AffinityEntropy(u, Eigen::Vector4d(0.25, 0.25, 0.25, 0.25), 1.0), 0.625, 1e-15);
  EXPECT_NEAR(AffinityEntropy(u, Eigen::Vector4d(1 / 6., 1 / 6., 1 / 3., 1 / 3.), 1.0), 2 / 3.,
              1e-15);
  const Eigen::VectorXd t = MaximiseAffinityEntropy(u, 1.0);
  EXPECT_NEAR(t[0], 1 / 6., 1e-9);
  EXPECT_EQ(t[0], t[1]);  // clones keep equal masses, bit for bit
  EXPECT_NEAR(t[2], 1 / 3., 1e-9);
  EXPECT_NEAR(t[3], 1 / 3., 1e-9);
}

TEST(AffinityEntropyTest, MaximumWithCloneGroupsIsOneMinusOneOverC) {
  // Eq. 53 with p = 1: the maximum is 1 - 1/C, with mass 1/C on each group.
  const std::vector<std::vector<int>> cases = {{0},
                                               {0, 0, 0},
                                               {0, 1},
                                               {0, 0, 1},
                                               {0, 1, 1, 1, 2},
                                               {0, 0, 1, 2, 2, 2, 3},
                                               {3, 1, 3, 0, 2, 3}};
  for (const std::vector<int>& group : cases) {
    int groups = 0;
    for (int g : group) groups = std::max(groups, g + 1);
    const Eigen::MatrixXd u = AffinityMatrix(CloneKernel(group), 1.0);
    const Eigen::VectorXd t = MaximiseAffinityEntropy(u, 1.0);
    EXPECT_NEAR(AffinityEntropy(u, t, 1.0), 1.0 - 1.0 / groups, 1e-12);
    std::vector<double> mass(static_cast<size_t>(groups), 0.0);
    for (size_t a = 0; a < group.size(); ++a)
      mass[static_cast<size_t>(group[a])] += t[static_cast<Eigen::Index>(a)];
    for (double m : mass) EXPECT_NEAR(m, 1.0 / groups, 1e-9);
  }
}

TEST(AffinityEntropyTest, TsallisWhenTheKernelIsTheIdentity) {
  // U = I: H^p(x) = (1/p)(1 - sum x^(p+1)), Tsallis entropy (App. B).
  const Eigen::MatrixXd u = AffinityMatrix(Eigen::MatrixXd::Identity(3, 3), 0.5);
  const Eigen::Vector3d x(0.5, 0.3, 0.2);
  const double expected = (1 - std::pow(0.5, 1.5) - std::pow(0.3, 1.5) - std::pow(0.2, 1.5)) / 0.5;
  EXPECT_NEAR(AffinityEntropy(u, x, 0.5), expected, 1e-15);
}

TEST(AffinityEntropyTest, GradientMatchesFiniteDifferences) {
  Eigen::MatrixXd k(4, 4);
  k << 1, 0.7, 0.1, 0, 0.7, 1, 0.2, 0.05, 0.1, 0.2, 1, 0.4, 0, 0.05, 0.4, 1;
  for (double p : {1.0, 0.5, 0.25}) {
    const Eigen::MatrixXd u = AffinityMatrix(k, p);
    const Eigen::Vector4d x(0.1, 0.2, 0.3, 0.4);
    const Eigen::VectorXd g = AffinityEntropyGradient(u, x, p);
    for (Eigen::Index a = 0; a < 4; ++a) {
      Eigen::Vector4d up = x;
      Eigen::Vector4d down = x;
      up[a] += 1e-6;
      down[a] -= 1e-6;
      const double fd = (AffinityEntropy(u, up, p) - AffinityEntropy(u, down, p)) / 2e-6;
      EXPECT_NEAR(g[a], fd, 1e-7) << "p " << p << " a " << a;
    }
  }
}

TEST(AffinityEntropyTest, DissimilarityIsZeroExactlyForClones) {
  // Player 0 of a 3 x 2 game whose actions 0 and 2 are clones: D = mean squared difference
  // over the opponent's two actions (Eq. 6); the kernel is 1 there, ~0 elsewhere.
  NormalFormGame game;
  game.actions = {3, 2};
  game.payoffs = {{1, -1, 0.5, 0.25, 1, -1}, {0, 0, 0, 0, 0, 0}};
  const Eigen::MatrixXd d = StrategicDissimilarity(game, 0);
  EXPECT_EQ(d(0, 2), 0.0);
  EXPECT_DOUBLE_EQ(d(0, 1), (0.25 + 1.5625) / 2);
  const Eigen::MatrixXd k = RbfKernel(d, 1e-6);
  EXPECT_EQ(k(0, 2), 1.0);
  EXPECT_LT(k(0, 1), 1e-100);
  const Profile t = Targets(game, {});
  EXPECT_NEAR(t[0][0] + t[0][2], 0.5, 1e-9);
  EXPECT_NEAR(t[0][1], 0.5, 1e-9);
  EXPECT_NEAR(t[1][0], 0.5, 1e-12);  // the opponent's two actions are clones too
  const Profile shannon = Targets(game, {.selection = Selection::kShannon});
  EXPECT_NEAR(shannon[0][1], 1 / 3., 1e-15);
}

// A product whose exact value is subnormal, computed where the compiler cannot fold it.
double SubnormalProduct() {
  volatile double a = 1e-300;
  volatile double b = 1e-10;
  return a * b;
}

TEST(FlushDenormalsTest, FlushesInItsScopeOnlyAndRestoresTheMode) {
  ASSERT_GT(SubnormalProduct(), 0.0);  // 1e-310: subnormal, not flushed by default
  {
    const ScopedFlushDenormals flush;
    EXPECT_EQ(SubnormalProduct(), 0.0);  // FTZ
    volatile double subnormal = std::numeric_limits<double>::denorm_min();
    volatile double one = 1.0;
    EXPECT_EQ(subnormal * one, 0.0);  // DAZ: a subnormal input reads as 0
    {
      const ScopedFlushDenormals nested;
      EXPECT_EQ(SubnormalProduct(), 0.0);
    }
    EXPECT_EQ(SubnormalProduct(), 0.0);  // the inner scope restored the outer one's mode
  }
  EXPECT_GT(SubnormalProduct(), 0.0);
}

TEST(AffinityEntropyTest, SubnormalAffinitiesReadAsZeroAndTheCallersModeIsKept) {
  // An affinity of three near-clones (kernel 0.5) and one far action whose entries are
  // subnormal: the maximiser equals the one with those entries written as 0, bit for bit
  // (the independent computation: the zeroed matrix, where no subnormal arises from the
  // entries), and the caller's floating-point mode is as before the call.
  const double tiny = 1e-310;
  Eigen::Matrix4d k;
  k << 1, 0.5, 0.5, tiny,  //
      0.5, 1, 0.5, tiny,   //
      0.5, 0.5, 1, tiny,   //
      tiny, tiny, tiny, 1;
  Eigen::Matrix4d zeroed = k;
  zeroed.col(3).head(3).setZero();
  zeroed.row(3).head(3).setZero();
  const Eigen::VectorXd with_subnormals = MaximiseAffinityEntropy(AffinityMatrix(k, 1.0), 1.0);
  EXPECT_GT(SubnormalProduct(), 0.0);
  const Eigen::VectorXd with_zeros = MaximiseAffinityEntropy(AffinityMatrix(zeroed, 1.0), 1.0);
  for (Eigen::Index a = 0; a < 4; ++a) EXPECT_EQ(with_subnormals[a], with_zeros[a]) << a;
  // The three near-clones are alike, so they share equally, each less than the action apart
  // (affinity entropy discounts similar actions, [RE] §3.3).
  EXPECT_EQ(with_zeros[0], with_zeros[1]);
  EXPECT_EQ(with_zeros[1], with_zeros[2]);
  EXPECT_GT(with_zeros[3], with_zeros[0]);
}

TEST(AffinityEntropyTest, SparseAndDenseAffinitiesGiveTheSameMaximiser) {
  // 60 actions: three groups of exact clones (rows equal), near-clone pairs (kernel 0.3)
  // and the rest apart (kernel 0 or subnormal). The maximiser computed with U stored dense
  // (sparse_share 0) and sparse (1) agree to rounding (the same iterations, summed in
  // another order), and in both the clones' masses are bit-identical.
  const Eigen::Index n = 60;
  const auto group = [](Eigen::Index a) { return a < 5 ? 0 : a < 8 ? 1 : a < 10 ? 2 : a; };
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = 0; b < n; ++b) {
      if (group(a) == group(b)) {
        k(a, b) = 1.0;
      } else if (group(a) / 2 == group(b) / 2 && group(a) >= 10) {
        k(a, b) = 0.3;  // actions 10-11, 12-13, ...: near-clones
      } else if ((a + b) % 7 == 0) {
        k(a, b) = 1e-310;  // subnormal: read as 0
      }
    }
  }
  const Eigen::MatrixXd u = AffinityMatrix(k, 1.0);
  const Eigen::VectorXd dense = MaximiseAffinityEntropy(u, 1.0, {.sparse_share = 0.0});
  const Eigen::VectorXd sparse = MaximiseAffinityEntropy(u, 1.0, {.sparse_share = 1.0});
  EXPECT_NEAR(dense.sum(), 1.0, 1e-12);
  for (Eigen::Index a = 0; a < n; ++a) EXPECT_NEAR(dense[a], sparse[a], 1e-10) << a;
  for (const Eigen::VectorXd* x : {&dense, &sparse}) {
    for (Eigen::Index a = 1; a < 10; ++a) {
      if (group(a) == group(a - 1)) {
        EXPECT_EQ((*x)[a], (*x)[a - 1]) << a;
      }
    }
  }
}

}  // namespace
}  // namespace ratings::games
