#include "ratings/batch/bradley_terry.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace ratings {
namespace {

absl::Status Validate(size_t n, absl::Span<const PairCount> pairs, const BradleyTerryOptions& o) {
  if (absl::Status s = CheckBradleyTerryOptions(o); !s.ok()) return s;
  if (!o.start.empty() && o.start.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-bt: ", o.start.size(), " starting ratings for ", n, " agents"));
  }
  for (size_t i = 0; i < o.start.size(); ++i) {
    if (!std::isfinite(o.start[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("elo-bt: starting rating ", i, " is not finite"));
    }
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    const PairCount& p = pairs[i];
    if (p.a >= p.b || p.b >= n || !std::isfinite(p.n_ab) || !std::isfinite(p.n_ba) || p.n_ab < 0 ||
        p.n_ba < 0) {
      return absl::InvalidArgumentError(absl::StrCat("elo-bt: pair ", i, " (", p.a, ", ", p.b, ", ",
                                                     p.n_ab, ", ", p.n_ba, ") is not a < b < ", n,
                                                     " with finite counts >= 0"));
    }
  }
  return absl::OkStatus();
}

// Whether every agent reaches every other along "beat" edges (Hunter 2004, Assumption 1):
// from agent 0 forwards and backwards, on compressed adjacency lists.
bool StronglyConnected(size_t n, absl::Span<const PairCount> pairs) {
  if (n <= 1) return true;
  for (bool forward : {true, false}) {
    std::vector<size_t> start(n + 1, 0);
    for (const PairCount& p : pairs) {
      if (p.n_ab > 0) ++start[(forward ? p.a : p.b) + 1];
      if (p.n_ba > 0) ++start[(forward ? p.b : p.a) + 1];
    }
    for (size_t i = 0; i < n; ++i) start[i + 1] += start[i];
    std::vector<AgentId> next(start[n]);
    std::vector<size_t> fill(start.begin(), start.end() - 1);
    for (const PairCount& p : pairs) {
      if (p.n_ab > 0) next[fill[forward ? p.a : p.b]++] = forward ? p.b : p.a;
      if (p.n_ba > 0) next[fill[forward ? p.b : p.a]++] = forward ? p.a : p.b;
    }
    std::vector<bool> seen(n, false);
    std::vector<AgentId> stack = {0};
    seen[0] = true;
    size_t reached = 1;
    while (!stack.empty()) {
      const AgentId x = stack.back();
      stack.pop_back();
      for (size_t e = start[x]; e < start[x + 1]; ++e) {
        if (!seen[next[e]]) {
          seen[next[e]] = true;
          ++reached;
          stack.push_back(next[e]);
        }
      }
    }
    if (reached != n) return false;
  }
  return true;
}

// The MM map F of Hunter (2004) Eq. (3) and the log-posterior it increases.
class MmMap {
 public:
  MmMap(size_t n, absl::Span<const PairCount> pairs, double prior)
      : n_(n), pairs_(pairs), prior_(prior), wins_(n, prior / 2.0), denominator_(n) {
    // W_i includes the prior's half of the virtual draws.
    for (const PairCount& p : pairs) {
      wins_[p.a] += p.n_ab;
      wins_[p.b] += p.n_ba;
    }
  }

  // out = F(gamma): gamma_i <- W_i / sum_j N_ij / (gamma_i + gamma_j), all i at once; the
  // prior adds its virtual games against gamma = 1. Returns the largest |log change|.
  double Apply(const std::vector<double>& gamma, std::vector<double>& out) {
    std::fill(denominator_.begin(), denominator_.end(), 0.0);
    for (const PairCount& p : pairs_) {
      const double games = (p.n_ab + p.n_ba) / (gamma[p.a] + gamma[p.b]);
      denominator_[p.a] += games;
      denominator_[p.b] += games;
    }
    out.resize(n_);
    double log_sum = 0.0;
    for (size_t i = 0; i < n_; ++i) {
      const double d = denominator_[i] + prior_ / (gamma[i] + 1.0);
      out[i] = d > 0 ? wins_[i] / d : gamma[i];  // no games, no prior: stays
      if (prior_ == 0) log_sum += std::log(out[i]);
    }
    // Without a prior the likelihood is invariant to scaling all gamma: fix the
    // geometric mean at 1 so that the mean rating is the anchor.
    const double scale = prior_ == 0 && n_ > 0 ? std::exp(-log_sum / n_) : 1.0;
    double change = 0.0;
    for (size_t i = 0; i < n_; ++i) {
      out[i] *= scale;
      change = std::max(change, std::abs(std::log(out[i] / gamma[i])));
    }
    return change;
  }

  // sum_i W_i ln gamma_i - sum_pairs N ln(gamma_a + gamma_b) - prior sum_i ln(gamma_i + 1).
  double LogPosterior(const std::vector<double>& gamma) const {
    double total = 0.0;
    for (size_t i = 0; i < n_; ++i) {
      total += wins_[i] * std::log(gamma[i]) - prior_ * std::log1p(gamma[i]);
    }
    for (const PairCount& p : pairs_) {
      total -= (p.n_ab + p.n_ba) * std::log(gamma[p.a] + gamma[p.b]);
    }
    return total;
  }

 private:
  size_t n_;
  absl::Span<const PairCount> pairs_;
  double prior_;
  std::vector<double> wins_;
  std::vector<double> denominator_;
};

}  // namespace

absl::Status CheckBradleyTerryOptions(const BradleyTerryOptions& o) {
  if (!std::isfinite(o.prior) || o.prior < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-bt: prior must be finite and >= 0, got ", o.prior));
  }
  if (!std::isfinite(o.anchor)) {
    return absl::InvalidArgumentError(absl::StrCat("elo-bt: anchor must be finite"));
  }
  if (!std::isfinite(o.tolerance) || o.tolerance <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-bt: tolerance must be finite and > 0, got ", o.tolerance));
  }
  if (o.max_iterations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo-bt: max_iterations must be >= 1, got ", o.max_iterations));
  }
  return absl::OkStatus();
}

absl::StatusOr<BradleyTerryFit> FitBradleyTerry(size_t n, absl::Span<const PairCount> pairs,
                                                const BradleyTerryOptions& options,
                                                const ProgressFn& progress) {
  if (absl::Status s = Validate(n, pairs, options); !s.ok()) return s;
  if (options.prior == 0 && !StronglyConnected(n, pairs)) {
    return absl::InvalidArgumentError(
        "elo-bt: with prior=0 every agent must have beaten, through a chain of wins, every "
        "other (strongly connected comparisons, Hunter 2004 Assumption 1); otherwise the "
        "maximum-likelihood ratings diverge. Use prior > 0");
  }
  // gamma_i = 10^((r_i - anchor)/400); the reference agent of the prior has gamma 1.
  MmMap mm(n, pairs, options.prior);
  std::vector<double> gamma(n, 1.0), g1, g2, jump, g3;
  BradleyTerryFit fit;
  const double kEloPerLn = 400.0 / std::log(10.0);
  for (size_t i = 0; i < options.start.size(); ++i) {
    gamma[i] = std::exp((options.start[i] - options.anchor) / kEloPerLn);
  }
  const double tolerance = options.tolerance / kEloPerLn;  // in ln(gamma)
  const int64_t stride = ProgressStride(options.max_iterations);
  int64_t it = 0;
  // One evaluation of F, counted, with the convergence test on its move.
  auto step = [&](const std::vector<double>& from, std::vector<double>& to) {
    const double change = mm.Apply(from, to);
    ++it;
    fit.iterations = it;
    fit.last_change = change * kEloPerLn;
    if (progress && it % stride == 0) progress(it, options.max_iterations);
    return change <= tolerance;
  };
  while (it < options.max_iterations) {
    if (!options.accelerate || options.max_iterations - it < 3) {
      g1.swap(gamma);
      const bool done = step(g1, gamma);
      if (done) {
        fit.converged = true;
        break;
      }
      continue;
    }
    // SQUAREM (Varadhan & Roland 2008, scheme S3) on ln(gamma): two MM steps, an
    // extrapolation along them, and one MM step from there. MM converges linearly and
    // slowly when some agents have many games; this keeps its monotone ascent (the jump
    // is kept only if it does not lower the log-posterior) at far fewer steps.
    if (step(gamma, g1)) {
      gamma.swap(g1);
      fit.converged = true;
      break;
    }
    if (step(g1, g2)) {
      gamma.swap(g2);
      fit.converged = true;
      break;
    }
    double rr = 0.0, vv = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const double r = std::log(g1[i] / gamma[i]);
      const double v = std::log(g2[i] / g1[i]) - r;
      rr += r * r;
      vv += v * v;
    }
    const double alpha = vv > 0 ? std::min(-1.0, -std::sqrt(rr / vv)) : -1.0;
    jump.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const double x0 = std::log(gamma[i]);
      const double r = std::log(g1[i]) - x0;
      const double v = std::log(g2[i]) - std::log(g1[i]) - r;
      jump[i] = std::exp(x0 - 2 * alpha * r + alpha * alpha * v);
    }
    const double l_jump = mm.LogPosterior(jump);
    if (!std::isfinite(l_jump) || l_jump < mm.LogPosterior(g2)) jump.swap(g2);
    const bool done = step(jump, g3);
    gamma.swap(g3);
    if (done) {
      fit.converged = true;
      break;
    }
  }
  if (progress) progress(options.max_iterations, options.max_iterations);
  fit.ratings.resize(n);
  for (size_t i = 0; i < n; ++i) fit.ratings[i] = options.anchor + kEloPerLn * std::log(gamma[i]);
  return fit;
}

}  // namespace ratings
