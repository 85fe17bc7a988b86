#include "ratings/batch/sco_batch.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "ratings/sco_internal.h"
#include "ratings/seeded_draws.h"
#include "ratings/status_macros.h"

namespace ratings {
namespace {

absl::Status CheckCommon(const char* method, int64_t batch, int64_t iterations, double alpha,
                         double min, double max) {
  if (batch < 1) {
    return absl::InvalidArgumentError(absl::StrCat(method, ": batch must be >= 1, got ", batch));
  }
  if (iterations < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(method, ": iterations must be >= 0, got ", iterations));
  }
  RETURN_IF_ERROR(sco_internal::CheckPositive(method, "alpha", alpha));
  return sco_internal::CheckBounds(method, min, max);
}

// The gradient of one batch as (agent, partial derivative) entries, one per agent per
// sampled vote: O(batch * k) to build and apply, never O(agents), and no dense scratch
// arrays to miss in cache at 53k agents.
class BatchGradient {
 public:
  void Add(AgentId a, double g) { entries_.push_back({a, g}); }

  // theta_a <- clip(theta_a + scale * sum of a's entries) (Algorithm 1 line 4: every sum
  // is taken before any clipping), then clears.
  void ApplyAndClear(double scale, double min, double max, std::vector<double>& theta) {
    for (const auto& [a, g] : entries_) theta[a] += scale * g;
    for (const auto& [a, g] : entries_) theta[a] = std::clamp(theta[a], min, max);
    entries_.clear();
  }

 private:
  std::vector<std::pair<AgentId, double>> entries_;
};

}  // namespace

absl::Status CheckScoBatchOptions(const ScoBatchOptions& o) {
  RETURN_IF_ERROR(CheckCommon("sco-batch", o.batch, o.iterations, o.alpha, o.min, o.max));
  return sco_internal::CheckPositive("sco-batch", "tau", o.tau);
}

absl::Status CheckScoFenchelYoungOptions(const ScoFenchelYoungOptions& o) {
  RETURN_IF_ERROR(CheckCommon("sco-fy", o.batch, o.iterations, o.alpha, o.min, o.max));
  RETURN_IF_ERROR(sco_internal::CheckPositive("sco-fy", "epsilon", o.epsilon));
  if (o.samples < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("sco-fy: samples must be >= 1, got ", o.samples));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<double>> SolveScoBatch(const VoteSet& votes, const ScoBatchOptions& o,
                                                  const ProgressFn& progress) {
  RETURN_IF_ERROR(CheckScoBatchOptions(o));
  const size_t n = votes.num_agents();
  // Algorithm 1's theta^0 is the midpoint of the box (the paper writes (max - min)/2,
  // which is the midpoint for its min = 0).
  std::vector<double> theta(n, (o.min + o.max) / 2.0);
  if (!o.start.empty()) {
    if (o.start.size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("sco-batch: ", o.start.size(), " starting ratings for ", n, " agents"));
    }
    for (size_t i = 0; i < n; ++i) {
      if (!(o.start[i] >= o.min && o.start[i] <= o.max)) {
        return absl::InvalidArgumentError(absl::StrCat("sco-batch: starting rating ", i, " (",
                                                       o.start[i], ") is outside [min, max]"));
      }
    }
    theta = o.start;
  }
  if (votes.size() == 0) return theta;
  BatchGradient gradient;
  std::mt19937_64 rng(o.seed);
  const int64_t stride = ProgressStride(o.iterations);
  const double inv_tau = 1.0 / o.tau;
  // With e_i = exp((theta_i - top)/tau), s = sigma((theta_c - theta_a)/tau) = e_c/(e_a+e_c)
  // and s(1-s) = e_a e_c / (e_a + e_c)^2: k exponentials per vote instead of k(k-1)/2.
  // Exact unless e underflows, which cannot happen while (max - min)/tau <= 600.
  const bool shared_exponentials = (o.max - o.min) * inv_tau <= 600.0;
  absl::InlinedVector<double, 16> e, g;
  // The batch is gathered in stages (draw all votes, then read their agents' ratings, then
  // compute) so that the random memory reads of one stage overlap instead of queueing
  // behind each vote's arithmetic: at 53k agents these reads, not the arithmetic, bound
  // the step (docs/BENCHMARKS.md).
  std::vector<IndexedResult> batch(static_cast<size_t>(o.batch));
  std::vector<double> gathered;
  for (int64_t t = 1; t <= o.iterations; ++t) {
    for (IndexedResult& v : batch) v = votes[UniformIndex(rng, votes.size())];
    gathered.clear();
    for (const IndexedResult& v : batch) {
      for (AgentId a : v.agents) gathered.push_back(theta[a]);
    }
    const double* th = gathered.data();
    for (const IndexedResult& v : batch) {
      const size_t k = v.size();
      e.resize(k);
      g.assign(k, 0.0);
      double top = th[0];
      for (size_t i = 1; i < k; ++i) top = std::max(top, th[i]);
      for (size_t i = 0; i < k; ++i) {
        e[i] = shared_exponentials ? std::exp((th[i] - top) * inv_tau) : th[i];
      }
      th += k;
      // Raw pointers: indexing the InlinedVectors in the lambda re-checks inline vs heap
      // storage at every access, which measurably slowed this loop.
      const double* const ed = e.data();
      double* const gd = g.data();
      sco_internal::ForEachOrderedPair(v.ranks, [&](size_t a, size_t c) {
        // a strictly above c. -d/dtheta_a sigma((theta_c - theta_a)/tau) = s(1-s)/tau
        // (Eq. 5, 7).
        double slope;
        if (shared_exponentials) {
          const double sum = ed[a] + ed[c];
          slope = ed[a] * ed[c] / (sum * sum);
        } else {
          const double s = 1.0 / (1.0 + std::exp((ed[a] - ed[c]) * inv_tau));
          slope = s * (1.0 - s);
        }
        const double move = v.weight * slope;
        gd[a] += move;
        gd[c] -= move;
      });
      for (size_t i = 0; i < k; ++i) gradient.Add(v.agents[i], g[i]);
    }
    gradient.ApplyAndClear(o.alpha * inv_tau, o.min, o.max, theta);
    if (progress && t % stride == 0) progress(t, o.iterations);
  }
  if (progress) progress(o.iterations, o.iterations);
  return theta;
}

absl::StatusOr<std::vector<double>> SolveScoFenchelYoung(const VoteSet& votes,
                                                         const ScoFenchelYoungOptions& o,
                                                         const ProgressFn& progress) {
  RETURN_IF_ERROR(CheckScoFenchelYoungOptions(o));
  const size_t n = votes.num_agents();
  std::vector<double> theta(n, (o.min + o.max) / 2.0);
  if (votes.size() == 0) return theta;
  BatchGradient gradient;
  std::mt19937_64 rng(o.seed);
  const int64_t stride = ProgressStride(o.iterations);
  absl::InlinedVector<double, 16> perturbed, g;
  for (int64_t t = 1; t <= o.iterations; ++t) {
    for (int64_t b = 0; b < o.batch; ++b) {
      const IndexedResult v = votes[UniformIndex(rng, votes.size())];
      const size_t k = v.size();
      perturbed.resize(k);
      g.resize(k);
      const double share = v.weight / static_cast<double>(o.samples);
      for (size_t i = 0; i < k; ++i) {
        // Observed rank y_i: agents strictly below, plus half of the tied others (the
        // mean of the tied positions), so the best agent of a strict vote has k - 1.
        double y = 0.0;
        for (size_t j = 0; j < k; ++j) {
          if (v.ranks[j] > v.ranks[i]) y += 1.0;
          if (j != i && v.ranks[j] == v.ranks[i]) y += 0.5;
        }
        g[i] = -v.weight * y;
      }
      for (int64_t s = 0; s < o.samples; ++s) {
        for (size_t i = 0; i < k; ++i) {
          perturbed[i] = theta[v.agents[i]] + o.epsilon * StandardGumbel(rng);
        }
        // y*(theta_S + eps Z): the rank of each perturbed rating among the vote's agents.
        for (size_t i = 0; i < k; ++i) {
          double rank = 0.0;
          for (size_t j = 0; j < k; ++j) {
            if (perturbed[j] < perturbed[i] || (perturbed[j] == perturbed[i] && j > i)) {
              rank += 1.0;
            }
          }
          g[i] += share * rank;
        }
      }
      for (size_t i = 0; i < k; ++i) gradient.Add(v.agents[i], g[i]);
    }
    // theta <- PROJ(theta - alpha g~_FY), g~_FY = (1/|B|) sum of the votes' gradients.
    gradient.ApplyAndClear(-o.alpha / static_cast<double>(o.batch), o.min, o.max, theta);
    if (progress && t % stride == 0) progress(t, o.iterations);
  }
  if (progress) progress(o.iterations, o.iterations);
  return theta;
}

}  // namespace ratings
