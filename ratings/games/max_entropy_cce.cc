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

// The dual of [RE] Eq. 8 on one game: the multipliers α_i(a') = softplus(θ_i(a')), one
// Adam per player, and the buffers of one evaluation. Work on the joint is split in two at
// a boundary of the first player's actions, a multiple of every player's block of later
// players (see Logits), the same split for any thread count.
class CceDual {
 public:
  CceDual(const NormalFormGame& game, const Profile& targets, const CceOptions& options)
      : game_(game),
        options_(options),
        players_(game.players()),
        size_(JointActions(game)),
        split_(players_ == 1 ? 0 : (game.actions[0] / 2) * (size_ / game.actions[0])),
        team_(options.threads),
        adam_(players_, Adam(options.beta2)),
        weighted_(players_),
        alpha_(players_),
        violation_(players_),
        logits_(static_cast<Eigen::Index>(size_)),
        x_(static_cast<Eigen::Index>(size_)) {
    for (size_t i = 0; i < players_; ++i) shapes_.push_back(ShapeOf(game.actions, i));
    log_target_ = LogTarget(targets);
    const double theta0 = std::log(std::expm1(options.initial_dual));
    for (size_t i = 0; i < players_; ++i) {
      theta_.push_back(
          Eigen::VectorXd::Constant(static_cast<Eigen::Index>(game.actions[i]), theta0));
    }
  }

  // x = softmax(l_θ) (kept unnormalised with its sum z_) and every constraint's violation.
  void Evaluate() {
    z_ = Exponentiate(ComputeLogits());
    ComputeViolations();
  }

  double exploitability() const {
    double worst = -std::numeric_limits<double>::infinity();
    for (const Eigen::VectorXd& v : violation_) worst = std::max(worst, v.maxCoeff());
    return worst;
  }

  // sum α |violation|: complementary slackness.
  double slackness() const {
    double slack = 0;
    for (size_t i = 0; i < players_; ++i) slack += alpha_[i].dot(violation_[i].cwiseAbs());
    return slack;
  }

  // One Adam update of θ; dL/dα_i(a') = -violation_i(a'). `t` counts updates from 1.
  void Step(int64_t t) {
    for (size_t i = 0; i < players_; ++i) {
      const Eigen::VectorXd grad =
          -violation_[i].cwiseProduct(theta_[i].unaryExpr([](double v) { return Sigmoid(v); }));
      adam_[i].Step(theta_[i], grad, options_.learning_rate, t);
    }
  }

  // The joint, marginals and ratings of the last evaluation.
  void Finish(CceResult& result) {
    x_ /= z_;
    result.joint.assign(x_.data(), x_.data() + size_);
    for (size_t i = 0; i < players_; ++i) {
      result.marginals.push_back(Marginal(result.joint, game_.actions, i));
    }
    result.ratings = violation_;
  }

 private:
  // log t(a) = sum_i log t_i(a_i), the target joint's logarithm.
  Eigen::ArrayXd LogTarget(const Profile& targets) const {
    Eigen::ArrayXd log_target = Eigen::ArrayXd::Zero(static_cast<Eigen::Index>(size_));
    for (size_t i = 0; i < players_; ++i) {
      const Eigen::VectorXd t =
          targets[i].cwiseMax(kTargetFloor) / targets[i].cwiseMax(kTargetFloor).sum();
      const Shape& s = shapes_[i];
      for (size_t o = 0; o < s.outer; ++o) {
        for (size_t a = 0; a < s.n; ++a) {
          log_target.segment(static_cast<Eigen::Index>((o * s.n + a) * s.inner),
                             static_cast<Eigen::Index>(s.inner)) +=
              std::log(t[static_cast<Eigen::Index>(a)]);
        }
      }
    }
    return log_target;
  }

  size_t Begin(size_t k) const { return k == 0 ? 0 : split_; }
  size_t End(size_t k) const { return k == 0 ? split_ : size_; }

  // l(a) = log t(a) - sum_i sum_a' α_i(a') [u_i(a', a_{-i}) - u_i(a)] ([RE] Eq. 8); returns
  // its maximum.
  double ComputeLogits() {
    team_.Run(players_, [&](size_t i) {
      alpha_[i] = theta_[i].unaryExpr([](double t) { return Softplus(t); });
      ContractSlot(game_.payoffs[i].data(), game_.actions, i, alpha_[i], weighted_[i]);
    });
    std::vector<double> totals;
    for (const Eigen::VectorXd& a : alpha_) totals.push_back(a.sum());
    double tops[2] = {0, 0};
    team_.Run(2, [&](size_t k) {
      tops[k] = -std::numeric_limits<double>::infinity();
      if (Begin(k) == End(k)) return;
      Logits(game_, shapes_, totals, weighted_, log_target_, Begin(k), End(k), logits_);
      tops[k] = logits_
                    .segment(static_cast<Eigen::Index>(Begin(k)),
                             static_cast<Eigen::Index>(End(k) - Begin(k)))
                    .maxCoeff();
    });
    return std::max(tops[0], tops[1]);
  }

  // x = exp(l - top), the exponentials in float (twice the SIMD width; relative error ~1e-7,
  // far below the stopping tolerances) on buffers rounded up to whole SIMD packets (Eigen
  // computes a trailing partial packet with the scalar exp, whose last bit can differ, and
  // clones must get equal masses wherever they sit); summed in double, per half in half
  // order. Returns the sum.
  double Exponentiate(double top) {
    double sums[2] = {0, 0};
    team_.Run(2, [&](size_t k) {
      const auto begin = static_cast<Eigen::Index>(Begin(k));
      const auto length = static_cast<Eigen::Index>(End(k) - Begin(k));
      Eigen::ArrayXf& e = exps_[k];
      e.resize((length + 15) / 16 * 16);
      e.head(length) = (logits_.segment(begin, length) - top).cast<float>();
      e.tail(e.size() - length).setZero();
      e = e.exp();  // on its own, so that Eigen vectorises it
      x_.segment(begin, length) = e.head(length).cast<double>();
      sums[k] = x_.segment(begin, length).sum();
    });
    return sums[0] + sums[1];
  }

  // violation_i(a') = E_x[u_i(a', a_{-i}) - u_i(a)]: the expectations over each half of the
  // unnormalised x, added in half order, then divided by z_.
  void ComputeViolations() {
    std::vector<Eigen::VectorXd> part_vectors[2];
    std::vector<double> part_played[2] = {std::vector<double>(players_),
                                          std::vector<double>(players_)};
    team_.Run(2, [&](size_t k) {
      HalfExpectations(game_, shapes_, x_, Begin(k), End(k), part_vectors[k],
                       part_played[k].data());
    });
    // Player 0's block spans both halves: its halves give the others' marginal, and its
    // deviations need the whole of it.
    const Eigen::VectorXd others0 = part_vectors[0][0] + part_vectors[1][0];
    const Shape& s0 = shapes_[0];
    Eigen::VectorXd deviation0[2];
    team_.Run(2, [&](size_t k) {
      const size_t rows_begin = k == 0 ? 0 : s0.n / 2;
      const size_t rows = k == 0 ? s0.n / 2 : s0.n - s0.n / 2;
      Eigen::Map<const RowMajor> u(game_.payoffs[0].data() + rows_begin * s0.inner,
                                   static_cast<Eigen::Index>(rows),
                                   static_cast<Eigen::Index>(s0.inner));
      deviation0[k] = u * others0;
    });
    for (size_t i = 0; i < players_; ++i) {
      const double played = (part_played[0][i] + part_played[1][i]) / z_;
      Eigen::VectorXd deviation;
      if (i == 0) {
        deviation.resize(static_cast<Eigen::Index>(s0.n));
        deviation << deviation0[0], deviation0[1];
      } else {
        deviation = part_vectors[0][i] + part_vectors[1][i];
      }
      violation_[i] = (deviation.array() / z_ - played).matrix();
    }
  }

  const NormalFormGame& game_;
  const CceOptions options_;
  const size_t players_;
  const size_t size_;
  const size_t split_;
  TaskTeam team_;
  std::vector<Shape> shapes_;
  Eigen::ArrayXd log_target_;
  std::vector<Eigen::VectorXd> theta_;
  std::vector<Adam> adam_;
  std::vector<Eigen::VectorXd> weighted_;  // per player: u_i contracted with α_i
  std::vector<Eigen::VectorXd> alpha_;
  std::vector<Eigen::VectorXd> violation_;
  Eigen::ArrayXd logits_;
  Eigen::ArrayXd x_;  // unnormalised; its sum is z_
  Eigen::ArrayXf exps_[2];
  double z_ = 1;
};

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
  CceDual dual(game, targets, options);
  CceResult result;
  while (true) {
    dual.Evaluate();
    result.exploitability = dual.exploitability();
    result.slackness = dual.slackness();
    if (result.exploitability <= options.epsilon && result.slackness <= options.slackness) {
      result.converged = true;
      break;
    }
    if (result.steps >= options.max_steps) break;
    dual.Step(++result.steps);
  }
  dual.Finish(result);
  return result;
}

}  // namespace ratings::games
