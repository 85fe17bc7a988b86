#include "ratings/games/annealed_qre.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "ratings/games/adam.h"
#include "ratings/games/task_team.h"

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

template <typename T>
std::vector<Vector<T>> Cast(const Profile& x) {
  std::vector<Vector<T>> out;
  for (const Eigen::VectorXd& v : x) out.push_back(v.cast<T>());
  return out;
}

// [RE] Eq. 4 and its gradient with respect to the logits of x = softmax(θ). The gradient
// uses Danskin's theorem: BR_i maximises u_i^τ(., x_{-i}), so it is held fixed. The
// contractions run in T: double for QreLoss, float in the solver's loop (twice the SIMD
// width). The solver's stopping test and its ratings are computed in double; the loss that
// decides annealing comes from the float contractions, accurate to about 1e-7 against a
// threshold of 1e-5.
template <typename T>
class QreObjective {
 public:
  QreObjective(const NormalFormGame& game, Profile log_targets, TaskTeam* team = nullptr)
      : game_(game),
        log_t_(std::move(log_targets)),
        team_(team),
        g_(game.players()),
        contractors_(game.players()),
        reduced_(game.players()),
        cross_(game.players()) {
    for (const std::vector<double>& u : game.payoffs) payoffs_.emplace_back(u.begin(), u.end());
  }

  // Sets deviation payoffs g_i = u_i(., x_{-i}); returns L^τ(x); fills `gradient` if given.
  double Evaluate(const Profile& x, const Profile& log_x, double tau, Profile* gradient) {
    const size_t n = game_.players();
    const std::vector<Vector<T>> xt = Cast<T>(x);
    RunPerPlayer([&](size_t i) { g_[i] = DeviationPayoffs(i, xt).template cast<double>(); });
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
    RunPerPlayer([&](size_t i) { CrossTerms(i, xt, d[i].cast<T>()); });
    for (size_t i = 0; i < n; ++i) {  // in player order, whatever ran where
      for (size_t j = 0; j < n; ++j) {
        if (j != i) grad_x[j] += cross_[i][j];
      }
    }
    gradient->resize(n);
    for (size_t j = 0; j < n; ++j) {
      (*gradient)[j] = x[j].cwiseProduct((grad_x[j].array() - x[j].dot(grad_x[j])).matrix());
    }
    return loss;
  }

 private:
  // fn(i) for every player, on the team if there is one. fn(i) writes only player i's
  // slots (g_[i], reduced_[i], cross_[i]) and uses contractors_[i].
  void RunPerPlayer(const std::function<void(size_t)>& fn) {
    if (team_ == nullptr) {
      for (size_t i = 0; i < game_.players(); ++i) fn(i);
    } else {
      team_->Run(game_.players(), fn);
    }
  }

  // For a player before the last, through its tensor with the last slot contracted
  // (kept in reduced_[i]: CrossTerms reads it again), so that both share one pass.
  Vector<T> DeviationPayoffs(size_t i, const std::vector<Vector<T>>& x) {
    BasicContractor<T>& contractor = contractors_[i];
    const size_t last = game_.players() - 1;
    const T* u = payoffs_[i].data();
    const absl::Span<const size_t> dims(game_.actions);
    if (i == last) return contractor.Run(u, dims, x, i);
    ContractSlot(u, dims, last, x[last], reduced_[i]);
    return contractor.Run(reduced_[i].data(), dims.first(last), x, i);
  }

  // cross_[i][j] = d/dx_j u_i(d_i, x_{-i}) for every j != i (d_i = BR_i - x_i).
  void CrossTerms(size_t i, const std::vector<Vector<T>>& x, const Vector<T>& d_i) {
    BasicContractor<T>& contractor = contractors_[i];
    Profile& out = cross_[i];
    out.resize(game_.players());
    const size_t n = game_.players();
    const size_t last = n - 1;
    const T* u = payoffs_[i].data();
    const absl::Span<const size_t> dims(game_.actions);
    std::vector<Vector<T>> w = x;
    w[i] = d_i;
    if (i != last) {
      // One full pass for the last player; the others from the tensor DeviationPayoffs
      // reduced by the last slot.
      out[last] = contractor.Run(u, dims, w, last).template cast<double>();
      for (size_t j = 0; j < last; ++j) {
        if (j == i) continue;
        out[j] = contractor.Run(reduced_[i].data(), dims.first(last), w, j).template cast<double>();
      }
    } else {
      ContractSlot(u, dims, last, d_i, reduced_[last]);
      for (size_t j = 0; j < last; ++j) {
        out[j] =
            contractor.Run(reduced_[last].data(), dims.first(last), x, j).template cast<double>();
      }
    }
  }

  const NormalFormGame& game_;
  const Profile log_t_;
  std::vector<std::vector<T>> payoffs_;
  TaskTeam* const team_;
  std::vector<Eigen::VectorXd> g_;
  std::vector<BasicContractor<T>> contractors_;  // per player
  std::vector<Vector<T>> reduced_;               // per player: its tensor, last slot contracted
  std::vector<Profile> cross_;                   // per player i: its cross terms for every j != i
};

double MaxRating(const std::vector<Eigen::VectorXd>& ratings) {
  double worst = -std::numeric_limits<double>::infinity();
  for (const Eigen::VectorXd& r : ratings) worst = std::max(worst, r.maxCoeff());
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
  QreObjective<double> qre(game, LogTargets(targets));
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
  TaskTeam team(options.threads);
  QreObjective<float> qre(game, log_t, &team);
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
    result.ratings = ProfileRatings(game, x);  // in double
    result.exploitability = MaxRating(result.ratings);
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
  return result;
}

}  // namespace ratings::games
