// Adam (Kingma 2014) with β1 = 0.9, ε = 1e-8 and β2 = 0.999 unless told otherwise: the
// optimiser [RE] App. F.2 uses for every equilibrium solve, one instance per player. The
// maximum-entropy CCE takes β2 = 0.99 (docs/GAMES.md §4).
#pragma once

#include <cmath>
#include <cstdint>

#include "Eigen/Core"

namespace ratings::games {

class Adam {
 public:
  // beta2 in (0, 1): the decay of the squared gradients' average.
  explicit Adam(double beta2 = 0.999) : beta2_(beta2) {}

  // One update of `theta` (minimising) with `grad`; `t` counts updates from 1.
  void Step(Eigen::VectorXd& theta, const Eigen::VectorXd& grad, double learning_rate, int64_t t) {
    if (m_.size() == 0) {
      m_ = Eigen::VectorXd::Zero(theta.size());
      v_ = Eigen::VectorXd::Zero(theta.size());
    }
    m_ = 0.9 * m_ + 0.1 * grad;
    v_ = beta2_ * v_ + (1 - beta2_) * grad.cwiseAbs2();
    const double c1 = 1 - std::pow(0.9, static_cast<double>(t));
    const double c2 = 1 - std::pow(beta2_, static_cast<double>(t));
    theta.array() -= learning_rate * (m_.array() / c1) / ((v_.array() / c2).sqrt() + 1e-8);
  }

 private:
  double beta2_;
  Eigen::VectorXd m_;
  Eigen::VectorXd v_;
};

}  // namespace ratings::games
