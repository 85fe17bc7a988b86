#include "ratings/games/max_entropy_cce.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ratings/games/adam.h"

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

Expectations Expect(absl::Span<const double> u, absl::Span<const double> x, const Shape& s) {
  // others(o, r) = sum over a_i of x(o, a_i, r): the others' marginal.
  Eigen::VectorXd others = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(s.outer * s.inner));
  Expectations e;
  e.deviation = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(s.n));
  for (size_t o = 0; o < s.outer; ++o) {
    for (size_t a = 0; a < s.n; ++a) {
      const size_t at = (o * s.n + a) * s.inner;
      for (size_t r = 0; r < s.inner; ++r) {
        others[static_cast<Eigen::Index>(o * s.inner + r)] += x[at + r];
        e.played += x[at + r] * u[at + r];
      }
    }
  }
  for (size_t o = 0; o < s.outer; ++o) {
    for (size_t a = 0; a < s.n; ++a) {
      const size_t at = (o * s.n + a) * s.inner;
      double sum = 0;
      for (size_t r = 0; r < s.inner; ++r) {
        sum += u[at + r] * others[static_cast<Eigen::Index>(o * s.inner + r)];
      }
      e.deviation[static_cast<Eigen::Index>(a)] += sum;
    }
  }
  return e;
}

double Softplus(double theta) { return theta > 30 ? theta : std::log1p(std::exp(theta)); }
double Sigmoid(double theta) { return 1 / (1 + std::exp(-theta)); }

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
  CceResult result;
  Eigen::ArrayXd logits(static_cast<Eigen::Index>(size));
  Eigen::VectorXd weighted;
  std::vector<double> x(size);
  std::vector<Eigen::VectorXd> violation(players);
  std::vector<Eigen::VectorXd> alpha(players);
  while (true) {
    // l(a) = log t(a) - sum_i sum_a' α_i(a') [u_i(a', a_{-i}) - u_i(a)]   ([RE] Eq. 8)
    logits = log_target;
    for (size_t i = 0; i < players; ++i) {
      alpha[i] = theta[i].unaryExpr([](double t) { return Softplus(t); });
      const double total = alpha[i].sum();
      ContractSlot(game.payoffs[i].data(), game.actions, i, alpha[i], weighted);
      const Shape& s = shapes[i];
      const double* u = game.payoffs[i].data();
      for (size_t o = 0; o < s.outer; ++o) {
        for (size_t a = 0; a < s.n; ++a) {
          const size_t at = (o * s.n + a) * s.inner;
          for (size_t r = 0; r < s.inner; ++r) {
            logits[static_cast<Eigen::Index>(at + r)] -=
                weighted[static_cast<Eigen::Index>(o * s.inner + r)] - total * u[at + r];
          }
        }
      }
    }
    const Eigen::ArrayXd e = (logits - logits.maxCoeff()).exp();
    const double z = e.sum();
    for (size_t a = 0; a < size; ++a) x[a] = e[static_cast<Eigen::Index>(a)] / z;
    // dL/dα_i(a') = -violation_i(a'), where violation = E_x[u_i(a', a_{-i}) - u_i(a)].
    double worst = -std::numeric_limits<double>::infinity();
    double slack = 0;
    for (size_t i = 0; i < players; ++i) {
      const Expectations ex = Expect(game.payoffs[i], x, shapes[i]);
      violation[i] = (ex.deviation.array() - ex.played).matrix();
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
  result.joint = x;
  for (size_t i = 0; i < players; ++i) result.marginals.push_back(Marginal(x, game.actions, i));
  result.ratings = violation;
  return result;
}

}  // namespace ratings::games
