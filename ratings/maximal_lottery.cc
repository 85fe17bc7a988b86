#include "ratings/maximal_lottery.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace ratings {

absl::StatusOr<MaximalLottery> MaximalLottery::Create(const MaximalLotteryOptions& o) {
  if (!std::isfinite(o.target_exploitability) || o.target_exploitability <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ml: target exploitability must be finite and > 0, got ", o.target_exploitability));
  }
  if (!(o.support_threshold >= 0 && o.support_threshold < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("ml: support_threshold must be in [0, 1), got ", o.support_threshold));
  }
  if (o.max_iterations < 1) {
    return absl::InvalidArgumentError("ml: max_iterations must be >= 1");
  }
  if (o.iterations_per_result < 0) {
    return absl::InvalidArgumentError("ml: iterations_per_result must be >= 0");
  }
  if (o.max_agents < 2) return absl::InvalidArgumentError("ml: max_agents must be >= 2");
  return MaximalLottery(o);
}

void MaximalLottery::Resize(size_t n) {
  if (n <= size_) return;
  size_ = n;
  if (refused_) return;
  if (n > options_.max_agents) {
    // Bound the dense margins rather than degrade the hot path (docs/MODELS.md §4).
    refused_ = true;
    tally_.Clear();
    margins_ = {};
    regrets_ = last_regret_ = average_sum_ = payoff_sum_ = reported_ = reported_payoff_ = {};
    return;
  }
  tally_.Resize(n);
  const auto old = regrets_.size();
  const auto grown = static_cast<Eigen::Index>(n);
  for (Eigen::VectorXd* v : {&regrets_, &last_regret_, &average_sum_, &payoff_sum_}) {
    v->conservativeResize(grown);
    v->tail(grown - old).setZero();
  }
  margins_stale_ = true;
}

void MaximalLottery::Update(const IndexedResult& result) {
  if (refused_) return;
  tally_.Add(result);
  margins_stale_ = true;
}

void MaximalLottery::RefreshMargins() {
  if (!margins_stale_) return;
  margins_ = tally_.MarginMatrix();
  scale_ = margins_.size() == 0 ? 0.0 : margins_.cwiseAbs().maxCoeff();
  // The running payoff of the average must be scored on the margins it is judged on.
  payoff_sum_.noalias() = margins_ * average_sum_;
  margins_stale_ = false;
}

void MaximalLottery::CurrentStrategy(Eigen::VectorXd& out) const {
  // Regret matching: play each action in proportion to its positive regret
  // ([AE] App. A); PRM+ adds the last regret as a prediction.
  if (options_.variant == RegretVariant::kPredictiveRegretMatchingPlus) {
    out = (regrets_ + last_regret_).cwiseMax(0.0);
  } else {
    out = regrets_.cwiseMax(0.0);
  }
  const double total = out.sum();
  if (total > 0) {
    out /= total;
  } else {
    out.setConstant(1.0 / static_cast<double>(out.size()));
  }
}

absl::StatusOr<SolveStats> MaximalLottery::Solve(int64_t max_iterations) {
  if (refused_) {
    return absl::FailedPreconditionError(absl::StrCat("ml: refused for a pool of ", size_,
                                                      " agents (max_agents ", options_.max_agents,
                                                      "; the margin matrix is dense)"));
  }
  RefreshMargins();
  SolveStats stats;
  if (size_ == 0 || scale_ == 0) {
    stats.converged = true;
    Report();
    return stats;
  }
  const auto n = static_cast<Eigen::Index>(size_);
  Eigen::VectorXd x(n), u(n), r(n);
  for (;;) {
    stats.exploitability = average_weight_ > 0 ? payoff_sum_.maxCoeff() / average_weight_ / scale_
                                               : (margins_ * AverageStrategy()).maxCoeff() / scale_;
    if (stats.exploitability <= options_.target_exploitability) {
      stats.converged = true;
      break;
    }
    if (stats.iterations >= max_iterations) break;
    CurrentStrategy(x);
    u.noalias() = margins_ * x;
    // Instantaneous regret of each pure action against x; x^T M x is 0 up to rounding
    // because M is antisymmetric.
    r = u.array() - x.dot(u);
    if (options_.variant == RegretVariant::kRegretMatching) {
      regrets_ += r;
    } else {
      regrets_ = (regrets_ + r).cwiseMax(0.0);
    }
    last_regret_ = r;
    ++averaging_step_;
    const double w = options_.variant == RegretVariant::kRegretMatching
                         ? 1.0
                         : static_cast<double>(averaging_step_);
    average_sum_ += w * x;
    payoff_sum_ += w * u;
    average_weight_ += w;
    ++stats.iterations;
    ++iterations_;
  }
  Report();
  stats.exploitability = Exploitability();
  return stats;
}

Eigen::VectorXd MaximalLottery::AverageStrategy() const {
  const auto n = static_cast<Eigen::Index>(size_);
  if (average_weight_ > 0) return average_sum_ / average_weight_;
  return Eigen::VectorXd::Constant(n, n == 0 ? 0.0 : 1.0 / static_cast<double>(n));
}

void MaximalLottery::Report() {
  reported_ = AverageStrategy();
  reported_payoff_ = margins_ * reported_;
  if (options_.support_threshold <= 0 || scale_ == 0) return;
  // Outside the support: a small probability, or a clear loss against the lottery (agents
  // outside an exact maximal lottery's support score below 0 against it).
  const double threshold = options_.support_threshold;
  const Eigen::ArrayXd utility = reported_payoff_.array() / scale_;
  Eigen::VectorXd pruned =
      (reported_.array() < threshold || utility < -threshold).select(0.0, reported_);
  const double mass = pruned.sum();
  if (mass <= 0 || mass == reported_.sum()) return;
  pruned /= mass;
  Eigen::VectorXd pruned_payoff = margins_ * pruned;
  const double bound =
      std::max(options_.target_exploitability, reported_payoff_.maxCoeff() / scale_);
  if (pruned_payoff.maxCoeff() / scale_ <= bound) {
    reported_ = std::move(pruned);
    reported_payoff_ = std::move(pruned_payoff);
  }
}

std::vector<double> MaximalLottery::Lottery() const {
  if (reported_.size() != static_cast<Eigen::Index>(size_)) {
    return std::vector<double>(size_, size_ == 0 ? 0.0 : 1.0 / static_cast<double>(size_));
  }
  return std::vector<double>(reported_.begin(), reported_.end());
}

std::vector<double> MaximalLottery::Ratings() const {
  std::vector<double> ratings(size_, 0.0);
  if (scale_ == 0 || reported_payoff_.size() != static_cast<Eigen::Index>(size_)) return ratings;
  for (size_t a = 0; a < size_; ++a) {
    ratings[a] = reported_payoff_[static_cast<Eigen::Index>(a)] / scale_;
  }
  return ratings;
}

double MaximalLottery::Exploitability() const {
  if (scale_ == 0 || reported_payoff_.size() == 0) return 0.0;
  return reported_payoff_.maxCoeff() / scale_;
}

MaximalLotteryState MaximalLottery::ExportState() const {
  MaximalLotteryState state;
  state.refused = refused_;
  state.size = size_;
  if (refused_) return state;
  for (size_t a = 0; a < size_; ++a) {
    for (size_t b = 0; b < size_; ++b) {
      const double n = tally_.N(static_cast<AgentId>(a), static_cast<AgentId>(b));
      if (n != 0.0) state.counts.push_back({static_cast<AgentId>(a), static_cast<AgentId>(b), n});
    }
  }
  const auto copy = [](const Eigen::VectorXd& v) {
    return std::vector<double>(v.begin(), v.end());
  };
  state.regrets = copy(regrets_);
  state.last_regret = copy(last_regret_);
  state.average_sum = copy(average_sum_);
  state.average_weight = average_weight_;
  state.iterations = iterations_;
  state.averaging_step = averaging_step_;
  return state;
}

absl::Status MaximalLottery::RestoreState(const MaximalLotteryState& state) {
  if (size_ != 0 || iterations_ != 0) {
    return absl::FailedPreconditionError("ml: restore needs a freshly created model");
  }
  Resize(state.size);
  if (refused_ != state.refused) {
    return absl::InvalidArgumentError(
        absl::StrCat("ml: the snapshot's pool has ", state.size, " agents and ml ",
                     state.refused ? "refused" : "on", " but max_agents is ", options_.max_agents));
  }
  if (refused_) return absl::OkStatus();
  for (const auto& c : state.counts) {
    if (c.a >= size_ || c.b >= size_ || c.a == c.b || !std::isfinite(c.n) || c.n < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("ml: bad margin count N(", c.a, ", ", c.b, ") = ", c.n));
    }
    tally_.Set(c.a, c.b, c.n);
  }
  const auto load = [&](const std::vector<double>& from, Eigen::VectorXd& to,
                        const char* name) -> absl::Status {
    if (from.size() != size_) {
      return absl::InvalidArgumentError(
          absl::StrCat("ml: ", name, " has ", from.size(), " entries for ", size_, " agents"));
    }
    for (size_t i = 0; i < from.size(); ++i) {
      if (!std::isfinite(from[i])) {
        return absl::InvalidArgumentError(absl::StrCat("ml: ", name, "[", i, "] is not finite"));
      }
      to[static_cast<Eigen::Index>(i)] = from[i];
    }
    return absl::OkStatus();
  };
  if (auto s = load(state.regrets, regrets_, "regrets"); !s.ok()) return s;
  if (auto s = load(state.last_regret, last_regret_, "last_regret"); !s.ok()) return s;
  if (auto s = load(state.average_sum, average_sum_, "average_sum"); !s.ok()) return s;
  if (!std::isfinite(state.average_weight) || state.average_weight < 0 || state.iterations < 0 ||
      state.averaging_step < 0) {
    return absl::InvalidArgumentError("ml: bad averaging state");
  }
  average_weight_ = state.average_weight;
  iterations_ = state.iterations;
  averaging_step_ = state.averaging_step;
  margins_stale_ = true;
  return absl::OkStatus();
}

}  // namespace ratings
