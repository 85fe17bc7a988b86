#include "ratings/games/annealed_qre.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ratings/games/adam.h"

namespace ratings::games {
namespace {

constexpr double kTargetFloor = 1e-12;

// log softmax(z), computed from z so that tiny probabilities keep their logarithm.
Eigen::VectorXd LogSoftmax(const Eigen::VectorXd& z) {
  const double top = z.maxCoeff();
  return (z.array() - top - std::log((z.array() - top).exp().sum())).matrix();
}

// KL(z || t) from log z and log t; 0 log 0 = 0.
double Kl(const Eigen::VectorXd& log_z, const Eigen::VectorXd& log_t) {
  double kl = 0;
  for (Eigen::Index a = 0; a < log_z.size(); ++a) {
    const double z = std::exp(log_z[a]);
    if (z > 0) kl += z * (log_z[a] - log_t[a]);
  }
  return kl;
}

// [RE] Eq. 4 and its gradient with respect to the logits of x = softmax(θ). The gradient
// uses Danskin's theorem: BR_i maximises u_i^τ(., x_{-i}), so it is held fixed.
class QreObjective {
 public:
  QreObjective(const NormalFormGame& game, Profile log_targets)
      : game_(game), log_t_(std::move(log_targets)), g_(game.players()) {}

  // Sets deviation payoffs g_i = u_i(., x_{-i}); returns L^τ(x); fills `gradient` if given.
  double Evaluate(const Profile& x, const Profile& log_x, double tau, Profile* gradient) {
    const size_t n = game_.players();
    for (size_t i = 0; i < n; ++i) g_[i] = DeviationPayoffs(i, x);
    double loss = 0;
    Profile d(n);
    for (size_t i = 0; i < n; ++i) {
      const Eigen::VectorXd log_br = LogSoftmax(g_[i] / tau + log_t_[i]);
      const Eigen::VectorXd br = log_br.array().exp().matrix();
      loss += br.dot(g_[i]) - tau * Kl(log_br, log_t_[i]) -
              (x[i].dot(g_[i]) - tau * Kl(log_x[i], log_t_[i]));
      d[i] = br - x[i];
    }
    if (gradient == nullptr) return loss;
    Profile grad_x(n);
    for (size_t j = 0; j < n; ++j) {
      grad_x[j] = -(g_[j] - tau * (log_x[j] - log_t_[j]));
    }
    for (size_t i = 0; i < n; ++i) AddCrossTerms(i, x, d[i], grad_x);
    gradient->resize(n);
    for (size_t j = 0; j < n; ++j) {
      (*gradient)[j] = x[j].cwiseProduct((grad_x[j].array() - x[j].dot(grad_x[j])).matrix());
    }
    return loss;
  }

  const std::vector<Eigen::VectorXd>& deviation_payoffs() const { return g_; }

 private:
  Eigen::VectorXd DeviationPayoffs(size_t i, const Profile& x) {
    return contractor_.Run(game_.payoffs[i].data(), game_.actions, x, i);
  }

  // grad_x[j] += d/dx_j u_i(d_i, x_{-i}) for every j != i (d_i = BR_i - x_i).
  void AddCrossTerms(size_t i, const Profile& x, const Eigen::VectorXd& d_i, Profile& grad_x) {
    const size_t n = game_.players();
    const size_t last = n - 1;
    const double* u = game_.payoffs[i].data();
    const absl::Span<const size_t> dims(game_.actions);
    Profile w = x;
    w[i] = d_i;
    if (i != last) {
      // One full pass for the last player, one (contract the last slot) shared by the rest.
      grad_x[last] += contractor_.Run(u, dims, w, last);
      ContractSlot(u, dims, last, x[last], reduced_);
      for (size_t j = 0; j < last; ++j) {
        if (j != i) grad_x[j] += contractor_.Run(reduced_.data(), dims.first(last), w, j);
      }
    } else {
      ContractSlot(u, dims, last, d_i, reduced_);
      for (size_t j = 0; j < last; ++j) {
        grad_x[j] += contractor_.Run(reduced_.data(), dims.first(last), x, j);
      }
    }
  }

  const NormalFormGame& game_;
  const Profile log_t_;
  std::vector<Eigen::VectorXd> g_;
  Contractor contractor_;
  Eigen::VectorXd reduced_;
};

double Exploitability(const std::vector<Eigen::VectorXd>& g, const Profile& x) {
  double worst = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, g[i].maxCoeff() - x[i].dot(g[i]));
  return worst;
}

Profile LogTargets(const Profile& targets) {
  Profile log_t;
  for (const Eigen::VectorXd& t : targets) {
    log_t.push_back(LogSoftmax(t.cwiseMax(kTargetFloor).array().log().matrix()));
  }
  return log_t;
}

}  // namespace

std::vector<Eigen::VectorXd> ProfileRatings(const NormalFormGame& game, const Profile& x) {
  std::vector<Eigen::VectorXd> ratings;
  for (size_t i = 0; i < game.players(); ++i) {
    const Eigen::VectorXd g = DeviationPayoffs(game, i, x);
    ratings.push_back((g.array() - x[i].dot(g)).matrix());
  }
  return ratings;
}

double QreLoss(const NormalFormGame& game, const Profile& targets, const Profile& logits,
               double tau, Profile* gradient) {
  Profile log_x;
  Profile x;
  for (const Eigen::VectorXd& theta : logits) {
    log_x.push_back(LogSoftmax(theta));
    x.push_back(log_x.back().array().exp().matrix());
  }
  QreObjective qre(game, LogTargets(targets));
  return qre.Evaluate(x, log_x, tau, gradient);
}

NashResult SolveAnnealedQre(const NormalFormGame& game, const Profile& targets,
                            const AnnealOptions& options) {
  const size_t n = game.players();
  const Profile log_t = LogTargets(targets);
  Profile theta = log_t;
  Profile log_x = log_t;
  Profile x(n);
  for (size_t i = 0; i < n; ++i) x[i] = log_x[i].array().exp().matrix();
  std::vector<Adam> adam(n);
  QreObjective qre(game, log_t);
  NashResult result;
  double tau = options.tau0;
  int64_t checks_at_tau = 0;
  Profile gradient;
  while (true) {
    for (int64_t s = 0; s < options.steps_per_decay && result.steps < options.max_steps; ++s) {
      qre.Evaluate(x, log_x, tau, &gradient);
      ++result.steps;
      for (size_t i = 0; i < n; ++i) {
        adam[i].Step(theta[i], gradient[i], options.learning_rate, result.steps);
        log_x[i] = LogSoftmax(theta[i]);
        x[i] = log_x[i].array().exp().matrix();
      }
    }
    result.loss = qre.Evaluate(x, log_x, tau, nullptr);
    result.exploitability = Exploitability(qre.deviation_payoffs(), x);
    if (result.exploitability <= options.epsilon) {
      result.converged = true;
      break;
    }
    if (result.steps >= options.max_steps) break;
    const bool small = result.loss <= options.anneal_threshold;
    if (small || ++checks_at_tau >= options.patience) {
      if (tau <= options.tau_min) break;  // nothing left to anneal: not an ε-NE
      if (!small) ++result.forced_decays;
      tau = std::max(options.decay * tau, options.tau_min);
      checks_at_tau = 0;
    }
  }
  result.tau = tau;
  result.strategies = x;
  result.ratings = ProfileRatings(game, x);
  return result;
}

}  // namespace ratings::games
