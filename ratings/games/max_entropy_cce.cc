#include "ratings/games/max_entropy_cce.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ratings/games/adam.h"
#include "ratings/games/task_team.h"

namespace ratings::games {
namespace {

constexpr double kTargetFloor = 1e-12;

struct Shape {
  size_t outer = 1;  // joint actions of the players before i
  size_t n = 1;      // player i's actions
  size_t inner = 1;  // joint actions of the players after i
};

Shape ShapeOf(absl::Span<const size_t> actions, size_t player) {
  Shape shape;
  for (size_t j = 0; j < player; ++j) shape.outer *= actions[j];
  shape.n = actions[player];
  for (size_t j = player + 1; j < actions.size(); ++j) shape.inner *= actions[j];
  return shape;
}

// E_x[u_i(a'_i, a_{-i})] for every a'_i, and E_x[u_i(a)].
struct Expectations {
  Eigen::VectorXd deviation;
  double played = 0;
};

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Player i's slice of a joint tensor at the others' index o: an n x inner block.
Eigen::Map<const RowMajor> Block(const double* t, const Shape& s, size_t o) {
  return {t + o * s.n * s.inner, static_cast<Eigen::Index>(s.n),
          static_cast<Eigen::Index>(s.inner)};
}

Expectations Expect(absl::Span<const double> u, absl::Span<const double> x, const Shape& s) {
  Expectations e;
  e.played =
      Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size()))
          .dot(Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())));
  e.deviation = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(s.n));
  if (s.inner == 1) {  // the last player: x and u are outer x n matrices
    const auto rows = static_cast<Eigen::Index>(s.outer);
    const auto cols = static_cast<Eigen::Index>(s.n);
    const Eigen::VectorXd others = Eigen::Map<const RowMajor>(x.data(), rows, cols).rowwise().sum();
    e.deviation.noalias() = Eigen::Map<const RowMajor>(u.data(), rows, cols).transpose() * others;
    return e;
  }
  // Per index o of the players before i: the marginal of the players after i, then
  // u_i(., o, r) weighted by it.
  for (size_t o = 0; o < s.outer; ++o) {
    const Eigen::RowVectorXd others = Block(x.data(), s, o).colwise().sum();
    e.deviation.noalias() += Block(u.data(), s, o) * others.transpose();
  }
  return e;
}

double Softplus(double theta) { return theta > 30 ? theta : std::log1p(std::exp(theta)); }
double Sigmoid(double theta) { return 1 / (1 + std::exp(-theta)); }

// l(a) for a in [begin, end) ([RE] Eq. 8): log t(a) + sum_i (sum α_i) u_i(a) - sum_i
// weighted_i(a_{-i}), where weighted_i = u_i contracted with α_i over player i's slot.
// begin and end are multiples of every player's `inner`, so whole rows (o, a_i) are inside.
void Logits(const NormalFormGame& game, const std::vector<Shape>& shapes,
            const std::vector<double>& totals, const std::vector<Eigen::VectorXd>& weighted,
            const Eigen::ArrayXd& log_target, size_t begin, size_t end, Eigen::ArrayXd& logits) {
  const auto b = static_cast<Eigen::Index>(begin);
  const auto length = static_cast<Eigen::Index>(end - begin);
  logits.segment(b, length) = log_target.segment(b, length);
  for (size_t i = 0; i < shapes.size(); ++i) {
    logits.segment(b, length) +=
        totals[i] * Eigen::Map<const Eigen::ArrayXd>(game.payoffs[i].data() + begin, length);
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const size_t row_begin = begin / s.inner;  // rows (o, a_i) of `inner` entries each
    const size_t row_end = end / s.inner;
    if (s.inner == 1) {  // the last player: rows are single entries, o = row / n
      const auto rows = static_cast<Eigen::Index>((end - begin) / s.n);
      Eigen::Map<RowMajor>(logits.data() + begin, rows, static_cast<Eigen::Index>(s.n)).colwise() -=
          weighted[i].segment(static_cast<Eigen::Index>(row_begin / s.n), rows);
      continue;
    }
    for (size_t o = row_begin / s.n; o * s.n < row_end; ++o) {
      const size_t first = std::max(row_begin, o * s.n);
      const size_t last = std::min(row_end, (o + 1) * s.n);
      Eigen::Map<RowMajor> block(logits.data() + first * s.inner,
                                 static_cast<Eigen::Index>(last - first),
                                 static_cast<Eigen::Index>(s.inner));
      block.rowwise() -=
          weighted[i]
              .segment(static_cast<Eigen::Index>(o * s.inner), static_cast<Eigen::Index>(s.inner))
              .transpose();
    }
  }
}

// Over the joint entries [begin, end) of an unnormalised x, for every player i:
// played[i] = sum u_i x; vectors[i] = player 0: the sum of x over its actions in the range
// (a vector over the others' joint actions); players after it: sum over the blocks o in the
// range of u_i(., o, .) times the others' marginal of x in the block, their deviations'
// share. begin and end are multiples of player 0's `inner`, so every later player's blocks
// fall wholly inside.
void HalfExpectations(const NormalFormGame& game, const std::vector<Shape>& shapes,
                      const Eigen::ArrayXd& x, size_t begin, size_t end,
                      std::vector<Eigen::VectorXd>& vectors, double* played) {
  vectors.assign(shapes.size(), Eigen::VectorXd());
  const auto b = static_cast<Eigen::Index>(begin);
  const auto length = static_cast<Eigen::Index>(end - begin);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const double* u = game.payoffs[i].data();
    played[i] =
        length == 0
            ? 0.0
            : (Eigen::Map<const Eigen::ArrayXd>(u + begin, length) * x.segment(b, length)).sum();
    if (i == 0) {
      vectors[0] = Eigen::Map<const RowMajor>(x.data() + begin,
                                              static_cast<Eigen::Index>((end - begin) / s.inner),
                                              static_cast<Eigen::Index>(s.inner))
                       .colwise()
                       .sum()
                       .transpose();
      continue;
    }
    vectors[i] = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(s.n));
    if (s.inner == 1) {  // the last player: rows o of n entries
      const auto rows = static_cast<Eigen::Index>((end - begin) / s.n);
      const auto n = static_cast<Eigen::Index>(s.n);
      const Eigen::VectorXd others =
          Eigen::Map<const RowMajor>(x.data() + begin, rows, n).rowwise().sum();
      vectors[i].noalias() = Eigen::Map<const RowMajor>(u + begin, rows, n).transpose() * others;
      continue;
    }
    for (size_t o = begin / (s.n * s.inner); o < end / (s.n * s.inner); ++o) {
      const Eigen::RowVectorXd others = Block(x.data(), s, o).colwise().sum();
      vectors[i].noalias() += Block(u, s, o) * others.transpose();
    }
  }
}

}  // namespace

std::vector<Eigen::VectorXd> JointRatings(const NormalFormGame& game,
                                          absl::Span<const double> joint) {
  std::vector<Eigen::VectorXd> ratings;
  for (size_t i = 0; i < game.players(); ++i) {
    const Expectations e = Expect(game.payoffs[i], joint, ShapeOf(game.actions, i));
    ratings.push_back((e.deviation.array() - e.played).matrix());
  }
  return ratings;
}

CceResult SolveMaxEntropyCce(const NormalFormGame& game, const Profile& targets,
                             const CceOptions& options) {
  const size_t players = game.players();
  const size_t size = JointActions(game);
  std::vector<Shape> shapes;
  for (size_t i = 0; i < players; ++i) shapes.push_back(ShapeOf(game.actions, i));
  // log t(a) = sum_i log t_i(a_i), the target joint's logarithm.
  Eigen::ArrayXd log_target = Eigen::ArrayXd::Zero(static_cast<Eigen::Index>(size));
  for (size_t i = 0; i < players; ++i) {
    const Eigen::VectorXd t =
        targets[i].cwiseMax(kTargetFloor) / targets[i].cwiseMax(kTargetFloor).sum();
    const Shape& s = shapes[i];
    for (size_t o = 0; o < s.outer; ++o) {
      for (size_t a = 0; a < s.n; ++a) {
        log_target.segment(static_cast<Eigen::Index>((o * s.n + a) * s.inner),
                           static_cast<Eigen::Index>(s.inner)) +=
            std::log(t[static_cast<Eigen::Index>(a)]);
      }
    }
  }
  std::vector<Eigen::VectorXd> theta;
  std::vector<Adam> adam(players);
  const double theta0 = std::log(std::expm1(options.initial_dual));
  for (size_t i = 0; i < players; ++i) {
    const auto n = static_cast<Eigen::Index>(game.actions[i]);
    theta.push_back(Eigen::VectorXd::Constant(n, theta0));
  }
  TaskTeam team(options.threads);
  Eigen::VectorXd deviation0[2];  // player 0's deviations, rows split in two
  double last_z = 1;              // x is kept unnormalised; this is its sum
  // Work on the joint is split in two at a boundary of the first player's actions, a
  // multiple of every player's block of later players (see Logits).
  const size_t split = players == 1 ? 0 : (game.actions[0] / 2) * (size / game.actions[0]);
  CceResult result;
  Eigen::ArrayXd logits(static_cast<Eigen::Index>(size));
  std::vector<Eigen::VectorXd> weighted(players);
  Eigen::ArrayXd x(static_cast<Eigen::Index>(size));
  // One float buffer per half, its length rounded up to whole SIMD packets: Eigen computes a
  // trailing partial packet with the scalar exp, whose last bit can differ, and clones must
  // get equal masses wherever they sit.
  Eigen::ArrayXf exps[2];
  std::vector<Eigen::VectorXd> violation(players);
  std::vector<Eigen::VectorXd> alpha(players);
  while (true) {
    // l(a) = log t(a) - sum_i sum_a' α_i(a') [u_i(a', a_{-i}) - u_i(a)]   ([RE] Eq. 8)
    team.Run(players, [&](size_t i) {
      alpha[i] = theta[i].unaryExpr([](double t) { return Softplus(t); });
      ContractSlot(game.payoffs[i].data(), game.actions, i, alpha[i], weighted[i]);
    });
    std::vector<double> totals;
    for (const Eigen::VectorXd& a : alpha) totals.push_back(a.sum());
    double tops[2] = {0, 0};
    team.Run(2, [&](size_t k) {
      const size_t begin = k == 0 ? 0 : split;
      const size_t end = k == 0 ? split : size;
      tops[k] = -std::numeric_limits<double>::infinity();
      if (begin == end) return;
      Logits(game, shapes, totals, weighted, log_target, begin, end, logits);
      tops[k] =
          logits.segment(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(end - begin))
              .maxCoeff();
    });
    // The exponentials in float (twice the SIMD width; relative error ~1e-7, far below the
    // stopping tolerances), everything summed in double, in two fixed halves so that the sum
    // is the same on any number of threads.
    const double top = std::max(tops[0], tops[1]);
    const auto half = static_cast<Eigen::Index>(split);
    double sums[2] = {0, 0};
    team.Run(2, [&](size_t k) {
      const Eigen::Index begin = k == 0 ? 0 : half;
      const Eigen::Index length = k == 0 ? half : static_cast<Eigen::Index>(size) - half;
      Eigen::ArrayXf& e = exps[k];
      e.resize((length + 15) / 16 * 16);
      e.head(length) = (logits.segment(begin, length) - top).cast<float>();
      e.tail(e.size() - length).setZero();
      e = e.exp();  // on its own, so that Eigen vectorises it
      x.segment(begin, length) = e.head(length).cast<double>();
      sums[k] = x.segment(begin, length).sum();
    });
    const double z = sums[0] + sums[1];
    last_z = z;
    // dL/dα_i(a') = -violation_i(a'), where violation = E_x[u_i(a', a_{-i}) - u_i(a)]: the
    // expectations over each half with x unnormalised, added in half order, then / z.
    std::vector<Eigen::VectorXd> part_vectors[2];
    std::vector<double> part_played[2] = {std::vector<double>(players),
                                          std::vector<double>(players)};
    team.Run(2, [&](size_t k) {
      HalfExpectations(game, shapes, x, k == 0 ? 0 : split, k == 0 ? split : size, part_vectors[k],
                       part_played[k].data());
    });
    // Player 0's block spans both halves: its halves give the others' marginal, and its
    // deviations need the whole of it.
    const Eigen::VectorXd others0 = part_vectors[0][0] + part_vectors[1][0];
    team.Run(2, [&](size_t k) {
      const Shape& s = shapes[0];
      const size_t rows_begin = k == 0 ? 0 : s.n / 2;
      const size_t rows = k == 0 ? s.n / 2 : s.n - s.n / 2;
      Eigen::Map<const RowMajor> u(game.payoffs[0].data() + rows_begin * s.inner,
                                   static_cast<Eigen::Index>(rows),
                                   static_cast<Eigen::Index>(s.inner));
      deviation0[k] = u * others0;
    });
    for (size_t i = 0; i < players; ++i) {
      const double played = (part_played[0][i] + part_played[1][i]) / z;
      Eigen::VectorXd deviation;
      if (i == 0) {
        deviation.resize(static_cast<Eigen::Index>(shapes[0].n));
        deviation << deviation0[0], deviation0[1];
      } else {
        deviation = part_vectors[0][i] + part_vectors[1][i];
      }
      violation[i] = (deviation.array() / z - played).matrix();
    }
    double worst = -std::numeric_limits<double>::infinity();
    double slack = 0;
    for (size_t i = 0; i < players; ++i) {
      worst = std::max(worst, violation[i].maxCoeff());
      slack += alpha[i].dot(violation[i].cwiseAbs());
    }
    result.exploitability = worst;
    result.slackness = slack;
    if (worst <= options.epsilon && slack <= options.slackness) {
      result.converged = true;
      break;
    }
    if (result.steps >= options.max_steps) break;
    ++result.steps;
    for (size_t i = 0; i < players; ++i) {
      const Eigen::VectorXd grad =
          -violation[i].cwiseProduct(theta[i].unaryExpr([](double t) { return Sigmoid(t); }));
      adam[i].Step(theta[i], grad, options.learning_rate, result.steps);
    }
  }
  x /= last_z;
  result.joint.assign(x.data(), x.data() + size);
  for (size_t i = 0; i < players; ++i) {
    result.marginals.push_back(Marginal(result.joint, game.actions, i));
  }
  result.ratings = violation;
  return result;
}

}  // namespace ratings::games
