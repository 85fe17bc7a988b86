#include "ratings/batch/bradley_terry.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace ratings {
namespace {

absl::Status Validate(size_t n, absl::Span<const PairCount> pairs, const BradleyTerryOptions& o) {
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

}  // namespace

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
  // Wins W_i include the prior's half of the virtual draws.
  std::vector<double> wins(n, options.prior / 2.0);
  for (const PairCount& p : pairs) {
    wins[p.a] += p.n_ab;
    wins[p.b] += p.n_ba;
  }
  std::vector<double> gamma(n, 1.0);
  std::vector<double> denominator(n);
  BradleyTerryFit fit;
  const double kEloPerLn = 400.0 / std::log(10.0);
  const int64_t stride = ProgressStride(options.max_iterations);
  for (int64_t it = 1; it <= options.max_iterations; ++it) {
    // Hunter (2004) Eq. (3): gamma_i <- W_i / sum_j N_ij / (gamma_i + gamma_j), all i at
    // once from the previous gamma; the prior adds its virtual games against gamma = 1.
    std::fill(denominator.begin(), denominator.end(), 0.0);
    for (const PairCount& p : pairs) {
      const double games = (p.n_ab + p.n_ba) / (gamma[p.a] + gamma[p.b]);
      denominator[p.a] += games;
      denominator[p.b] += games;
    }
    double log_sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const double d = denominator[i] + options.prior / (gamma[i] + 1.0);
      const double updated = d > 0 ? wins[i] / d : gamma[i];  // no games, no prior: stays
      denominator[i] = updated;                               // reused as the new gamma
      if (options.prior == 0) log_sum += std::log(updated);
    }
    // Without a prior the likelihood is invariant to scaling all gamma: fix the
    // geometric mean at 1 so that the mean rating is the anchor.
    const double scale = options.prior == 0 && n > 0 ? std::exp(-log_sum / n) : 1.0;
    double change = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const double updated = denominator[i] * scale;
      change = std::max(change, std::abs(std::log(updated / gamma[i])) * kEloPerLn);
      gamma[i] = updated;
    }
    fit.iterations = it;
    fit.last_change = change;
    if (progress && (it % stride == 0)) progress(it, options.max_iterations);
    if (change <= options.tolerance) {
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
