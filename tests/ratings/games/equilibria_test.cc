// Nash equilibria by annealed QRE and maximum-entropy CCEs ([RE] §3.2, App. D-E). Expected
// values are closed forms: Rock-paper-scissors' uniform equilibrium (all ratings 0), and
// Chicken's symmetric mixed equilibrium (swerve 11/12, both actions earning -1/12, solved by
// hand from 0·q - (1 - q) = q - 12 (1 - q)). Ratings of an ε-equilibrium are checked
// relative to ε: an action of mass m may rate down to -ε/m.
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "ratings/games/affinity_entropy.h"
#include "ratings/games/annealed_qre.h"
#include "ratings/games/king_of_the_hill.h"
#include "ratings/games/max_entropy_cce.h"
#include "ratings/games/skill_game.h"

namespace ratings::games {
namespace {

constexpr double kEpsilon = 1e-3;

// A two-player game from the row player's and the column player's payoff matrices.
NormalFormGame Bimatrix(const Eigen::MatrixXd& row, const Eigen::MatrixXd& column) {
  NormalFormGame game;
  game.actions = {static_cast<size_t>(row.rows()), static_cast<size_t>(row.cols())};
  game.payoffs.resize(2);
  for (Eigen::Index a = 0; a < row.rows(); ++a) {
    for (Eigen::Index b = 0; b < row.cols(); ++b) {
      game.payoffs[0].push_back(row(a, b));
      game.payoffs[1].push_back(column(a, b));
    }
  }
  return game;
}

NormalFormGame RockPaperScissors(bool duplicate_rock) {
  Eigen::MatrixXd rps(3, 3);
  rps << 0, -1, 1, 1, 0, -1, -1, 1, 0;
  if (!duplicate_rock) return Bimatrix(rps, -rps.transpose());
  Eigen::MatrixXd row(4, 3);  // R1, R2, P, S against R, P, S
  row << rps.row(0), rps.row(0), rps.row(1), rps.row(2);
  Eigen::MatrixXd column(4, 3);
  column << -rps.col(0).transpose(), -rps.col(0).transpose(), -rps.col(1).transpose(),
      -rps.col(2).transpose();
  return Bimatrix(row, column);
}

// Actions swerve, straight; with `duplicate_straight` the row player has a second straight.
NormalFormGame Chicken(bool duplicate_straight) {
  Eigen::MatrixXd row(2, 2);
  row << 0, -1, 1, -12;
  if (!duplicate_straight) return Bimatrix(row, row.transpose());
  Eigen::MatrixXd dup_row(3, 2);
  dup_row << row.row(0), row.row(1), row.row(1);
  Eigen::MatrixXd dup_column(3, 2);
  const Eigen::MatrixXd column = row.transpose();
  dup_column << column.row(0), column.row(1), column.row(1);
  return Bimatrix(dup_row, dup_column);
}

void ExpectEquilibriumRatings(const std::vector<Eigen::VectorXd>& ratings, const Profile& x) {
  for (size_t i = 0; i < ratings.size(); ++i) {
    for (Eigen::Index a = 0; a < ratings[i].size(); ++a) {
      EXPECT_LE(ratings[i][a], kEpsilon) << "player " << i << " action " << a;
      EXPECT_GE(ratings[i][a], -kEpsilon / x[i][a]) << "player " << i << " action " << a;
    }
  }
}

TEST(AnnealedQreTest, RockPaperScissorsRatingsAreZeroWithAndWithoutAClone) {
  for (bool duplicate : {false, true}) {
    const NormalFormGame game = RockPaperScissors(duplicate);
    const NashResult ne = SolveAnnealedQre(game, Targets(game, {}));
    EXPECT_TRUE(ne.converged);
    ExpectEquilibriumRatings(ne.ratings, ne.strategies);
    // Rock's mass is 1/3 in total, split equally between its copies.
    const Eigen::VectorXd& row = ne.strategies[0];
    EXPECT_NEAR(row[0] + (duplicate ? row[1] : 0.0), 1 / 3., 1e-3);
    if (duplicate) {
      EXPECT_NEAR(row[0], row[1], 1e-9);
    }
  }
}

TEST(AnnealedQreTest, ChickenKeepsTheMixedEquilibriumWithACloneUnderAffinityEntropy) {
  // [RE] App. E, Fig. 9: swerve 11/12, ratings 0; with straight duplicated the group masses
  // stay (11/12, 1/12) and the straights split their 1/12 equally.
  for (bool duplicate : {false, true}) {
    const NormalFormGame game = Chicken(duplicate);
    const NashResult ne = SolveAnnealedQre(game, Targets(game, {}));
    EXPECT_TRUE(ne.converged) << ne.exploitability << " tau " << ne.tau;
    ExpectEquilibriumRatings(ne.ratings, ne.strategies);
    EXPECT_NEAR(ne.strategies[0][0], 11 / 12., 2e-3);
    EXPECT_NEAR(ne.strategies[1][0], 11 / 12., 2e-3);
    if (duplicate) {
      EXPECT_NEAR(ne.strategies[0][1], ne.strategies[0][2], 1e-9);
    }
  }
}

TEST(SelectionTest, ShannonPrefersAnotherEquilibriumOfChickenWithAClone) {
  // [RE] App. E with straight duplicated for the row player. Two Nash equilibria, checked as
  // such below: (a) the mixed one, row (11/12, 1/24, 1/24), column (11/12, 1/12); (b) row
  // mixing its straights (0, 1/2, 1/2) against a column that swerves (1, 0). By hand:
  // Shannon entropy (a) = 2 H(11/12, 1/12) + (1/12) ln 2 = 0.6314 < (b) = ln 2 = 0.6931, so
  // the maximum-Shannon-entropy equilibrium moves to (b); affinity entropy (a) = 2 (1 -
  // 122/144) = 0.3056 > (b) = 0, so the affinity selection keeps (a).
  const NormalFormGame game = Chicken(true);
  const Profile mixed = {Eigen::Vector3d(11 / 12., 1 / 24., 1 / 24.),
                         Eigen::Vector2d(11 / 12., 1 / 12.)};
  const Profile skewed = {Eigen::Vector3d(0, 0.5, 0.5), Eigen::Vector2d(1, 0)};
  for (const Profile& x : {mixed, skewed}) {
    for (const Eigen::VectorXd& r : ProfileRatings(game, x)) EXPECT_LE(r.maxCoeff(), 1e-12);
  }
  auto shannon = [](const Profile& x) {
    double h = 0;
    for (const Eigen::VectorXd& xi : x) {
      for (double p : xi) h -= p > 0 ? p * std::log(p) : 0.0;
    }
    return h;
  };
  const double h_mixed =
      -11 / 6. * std::log(11 / 12.) - 1 / 6. * std::log(1 / 12.) + std::log(2.0) / 12;
  EXPECT_NEAR(shannon(mixed), h_mixed, 1e-12);
  EXPECT_NEAR(h_mixed, 0.6314, 1e-4);
  EXPECT_NEAR(shannon(skewed), std::log(2.0), 1e-12);
  const Profile targets = Targets(game, {});
  auto affinity = [&](const Profile& x) {
    double h = 0;
    for (size_t i = 0; i < 2; ++i) {
      const Eigen::MatrixXd u =
          AffinityMatrix(RbfKernel(StrategicDissimilarity(game, i), 1e-6), 1.0);
      h += AffinityEntropy(u, x[i], 1.0);
    }
    return h;
  };
  EXPECT_NEAR(affinity(mixed), 2 * (1 - 122 / 144.), 1e-12);
  EXPECT_NEAR(affinity(skewed), 0.0, 1e-12);
  // The targets themselves: the row player's straights count as one action.
  EXPECT_NEAR(targets[0][0], 0.5, 1e-9);
  EXPECT_NEAR(targets[0][1], 0.25, 1e-9);
}

TEST(AnnealedQreTest, LossGradientMatchesFiniteDifferences) {
  // A random-looking 3-player general-sum game, away from equilibrium.
  NormalFormGame game;
  game.actions = {2, 3, 2};
  for (int i = 0; i < 3; ++i) {
    std::vector<double> u;
    for (int a = 0; a < 12; ++a) u.push_back(std::sin(1.7 * a + 2.3 * i) * (i + 1) / 3.0);
    game.payoffs.push_back(u);
  }
  const Profile targets = {Eigen::Vector2d(0.3, 0.7), Eigen::Vector3d(0.2, 0.5, 0.3),
                           Eigen::Vector2d(0.5, 0.5)};
  const Profile logits = {Eigen::Vector2d(0.1, -0.4), Eigen::Vector3d(0.3, 0.0, -0.2),
                          Eigen::Vector2d(-0.5, 0.6)};
  for (double tau : {1.0, 0.1}) {
    Profile gradient;
    QreLoss(game, targets, logits, tau, &gradient);
    for (size_t j = 0; j < 3; ++j) {
      for (Eigen::Index a = 0; a < logits[j].size(); ++a) {
        Profile up = logits;
        Profile down = logits;
        up[j][a] += 1e-6;
        down[j][a] -= 1e-6;
        const double fd =
            (QreLoss(game, targets, up, tau) - QreLoss(game, targets, down, tau)) / 2e-6;
        EXPECT_NEAR(gradient[j][a], fd, 1e-7) << "tau " << tau << " player " << j << " " << a;
      }
    }
  }
}

TEST(MaxEntropyCceTest, CertificateOnRockPaperScissorsAndChicken) {
  for (const NormalFormGame& game :
       {RockPaperScissors(false), RockPaperScissors(true), Chicken(false), Chicken(true)}) {
    const CceResult cce = SolveMaxEntropyCce(game, Targets(game, {}));
    EXPECT_TRUE(cce.converged);
    EXPECT_LE(cce.exploitability, kEpsilon);
    // The certificate recomputed from the joint alone.
    const std::vector<Eigen::VectorXd> ratings = JointRatings(game, cce.joint);
    for (const Eigen::VectorXd& r : ratings) EXPECT_LE(r.maxCoeff(), kEpsilon);
    double total = 0;
    for (double p : cce.joint) total += p;
    EXPECT_NEAR(total, 1.0, 1e-12);
  }
}

TEST(MaxEntropyCceTest, AdamsUsualBeta2ReachesTheSameCceInMoreSteps) {
  // The default β2 = 0.99 (docs/GAMES.md §4) and F.2's usual 0.999 solve the same convex
  // dual to the same stopping rules: both certificates hold (recomputed from the joint),
  // the ratings agree to well inside ε, and the default takes fewer steps. A king-of-the-hill
  // game of 40 prompts: slack constraints abound, as in [RE]'s.
  const absl::StatusOr<SkillGame> skill =
      GenerateSkillGame({.prompts = 40, .models = 6, .seed = 3});
  ASSERT_TRUE(skill.ok());
  const absl::StatusOr<Preferences> preferences = AggregatePreferences(skill->judgements);
  ASSERT_TRUE(preferences.ok());
  const NormalFormGame game = KingOfTheHill(preferences->tensor);
  const Profile targets = Targets(game, {});
  CceOptions usual;
  usual.beta2 = 0.999;
  const CceResult fast = SolveMaxEntropyCce(game, targets);
  const CceResult slow = SolveMaxEntropyCce(game, targets, usual);
  ASSERT_TRUE(fast.converged);
  ASSERT_TRUE(slow.converged);
  for (const CceResult* r : {&fast, &slow}) {
    EXPECT_LE(r->slackness, CceOptions{}.slackness);
    for (const Eigen::VectorXd& v : JointRatings(game, r->joint)) EXPECT_LE(v.maxCoeff(), kEpsilon);
  }
  for (size_t i = 0; i < game.players(); ++i) {
    EXPECT_LT((fast.ratings[i] - slow.ratings[i]).cwiseAbs().maxCoeff(), 1e-4) << i;
  }
  EXPECT_LT(fast.steps, slow.steps);
}

TEST(EquilibriaTest, SameResultForAnyThreadCount) {
  // A 3-player game with distinct payoffs everywhere, solved on 1 and on 3 threads.
  NormalFormGame game;
  game.actions = {4, 3, 5};
  for (int i = 0; i < 3; ++i) {
    std::vector<double> u;
    for (int a = 0; a < 60; ++a) u.push_back(std::sin(0.7 * a + 1.9 * i + 0.3 * a * i));
    game.payoffs.push_back(u);
  }
  const Profile targets = Targets(game, {});
  AnnealOptions one;
  one.threads = 1;
  one.max_steps = 5000;
  AnnealOptions three = one;
  three.threads = 3;
  const NashResult a = SolveAnnealedQre(game, targets, one);
  const NashResult b = SolveAnnealedQre(game, targets, three);
  EXPECT_EQ(a.steps, b.steps);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(a.strategies[i], b.strategies[i]);
  EXPECT_EQ(a.exploitability, b.exploitability);
  CceOptions cce_one;
  cce_one.threads = 1;
  cce_one.max_steps = 3000;
  CceOptions cce_three = cce_one;
  cce_three.threads = 3;
  NormalFormGame solo;  // one player: nothing to split
  solo.actions = {5};
  solo.payoffs = {{0.1, 0.4, -0.2, 0.4, 0.0}};
  for (const NormalFormGame& g : {game, solo}) {
    const Profile t = Targets(g, {});
    const CceResult c = SolveMaxEntropyCce(g, t, cce_one);
    const CceResult d = SolveMaxEntropyCce(g, t, cce_three);
    EXPECT_EQ(c.steps, d.steps);
    EXPECT_EQ(c.joint, d.joint);
  }
  // The one-player CCE puts its mass on the best actions (1 and 3, payoff 0.4).
  const CceResult best = SolveMaxEntropyCce(solo, Targets(solo, {}));
  EXPECT_TRUE(best.converged);
  EXPECT_NEAR(best.joint[1] + best.joint[3], 1.0, 2e-2);
}

TEST(EquilibriaTest, Deterministic) {
  const NormalFormGame game = Chicken(true);
  const NashResult a = SolveAnnealedQre(game, Targets(game, {}));
  const NashResult b = SolveAnnealedQre(game, Targets(game, {}));
  EXPECT_EQ(a.steps, b.steps);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(a.strategies[i], b.strategies[i]);
  const CceResult c = SolveMaxEntropyCce(game, Targets(game, {}));
  const CceResult d = SolveMaxEntropyCce(game, Targets(game, {}));
  EXPECT_EQ(c.joint, d.joint);
}

}  // namespace
}  // namespace ratings::games
