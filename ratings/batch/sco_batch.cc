#include "ratings/batch/sco_batch.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "ratings/seeded_draws.h"

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
  if (!std::isfinite(alpha) || alpha <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(method, ": alpha must be finite and > 0, got ", alpha));
  }
  if (!std::isfinite(min) || !std::isfinite(max) || !(min < max)) {
    return absl::InvalidArgumentError(
        absl::StrCat(method, ": need finite min < max, got [", min, ", ", max, "]"));
  }
  return absl::OkStatus();
}

// The gradient accumulated over one batch, dense by agent, with the list of touched agents
// so that applying and clearing it costs O(batch * k), never O(agents).
class BatchGradient {
 public:
  explicit BatchGradient(size_t n) : value_(n, 0.0), touched_flag_(n, 0) {}

  void Touch(AgentId a) {
    if (!touched_flag_[a]) {
      touched_flag_[a] = 1;
      touched_.push_back(a);
    }
  }
  double& operator[](AgentId a) { return value_[a]; }

  // theta_a <- clip(theta_a + scale * g_a) for every touched a (Algorithm 1 line 4), then
  // clears the gradient.
  void ApplyAndClear(double scale, double min, double max, std::vector<double>& theta) {
    for (AgentId a : touched_) {
      theta[a] = std::clamp(theta[a] + scale * value_[a], min, max);
      value_[a] = 0.0;
      touched_flag_[a] = 0;
    }
    touched_.clear();
  }

 private:
  std::vector<double> value_;
  std::vector<uint8_t> touched_flag_;
  std::vector<AgentId> touched_;
};

}  // namespace

absl::StatusOr<std::vector<double>> SolveScoBatch(const VoteSet& votes, const ScoBatchOptions& o,
                                                  const ProgressFn& progress) {
  if (absl::Status s = CheckCommon("sco-batch", o.batch, o.iterations, o.alpha, o.min, o.max);
      !s.ok()) {
    return s;
  }
  if (!std::isfinite(o.tau) || o.tau <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("sco-batch: tau must be finite and > 0, got ", o.tau));
  }
  const size_t n = votes.num_agents();
  // Algorithm 1's theta^0 is the midpoint of the box (the paper writes (max - min)/2,
  // which is the midpoint for its min = 0).
  std::vector<double> theta(n, (o.min + o.max) / 2.0);
  if (votes.size() == 0) return theta;
  BatchGradient gradient(n);
  std::mt19937_64 rng(o.seed);
  const int64_t stride = ProgressStride(o.iterations);
  const double inv_tau = 1.0 / o.tau;
  for (int64_t t = 1; t <= o.iterations; ++t) {
    for (int64_t b = 0; b < o.batch; ++b) {
      const IndexedResult v = votes[UniformIndex(rng, votes.size())];
      const size_t k = v.size();
      for (size_t i = 0; i < k; ++i) gradient.Touch(v.agents[i]);
      for (size_t i = 0; i < k; ++i) {
        for (size_t j = i + 1; j < k; ++j) {
          if (v.ranks[i] == v.ranks[j]) continue;
          const bool i_above = v.ranks[i] < v.ranks[j];
          const AgentId a = v.agents[i_above ? i : j];  // strictly above
          const AgentId c = v.agents[i_above ? j : i];
          // -d/dtheta_a sigma((theta_c - theta_a)/tau) = s(1-s)/tau (Eq. 5, 7).
          const double s = 1.0 / (1.0 + std::exp((theta[a] - theta[c]) * inv_tau));
          const double move = v.weight * s * (1.0 - s);
          gradient[a] += move;
          gradient[c] -= move;
        }
      }
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
  if (absl::Status s = CheckCommon("sco-fy", o.batch, o.iterations, o.alpha, o.min, o.max);
      !s.ok()) {
    return s;
  }
  if (!std::isfinite(o.epsilon) || o.epsilon <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("sco-fy: epsilon must be finite and > 0, got ", o.epsilon));
  }
  if (o.samples < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("sco-fy: samples must be >= 1, got ", o.samples));
  }
  const size_t n = votes.num_agents();
  std::vector<double> theta(n, (o.min + o.max) / 2.0);
  if (votes.size() == 0) return theta;
  BatchGradient gradient(n);
  std::mt19937_64 rng(o.seed);
  const int64_t stride = ProgressStride(o.iterations);
  absl::InlinedVector<double, 16> perturbed;
  for (int64_t t = 1; t <= o.iterations; ++t) {
    for (int64_t b = 0; b < o.batch; ++b) {
      const IndexedResult v = votes[UniformIndex(rng, votes.size())];
      const size_t k = v.size();
      perturbed.resize(k);
      const double share = v.weight / static_cast<double>(o.samples);
      for (size_t i = 0; i < k; ++i) {
        // Observed rank y_i: agents strictly below, plus half of the tied others (the
        // mean of the tied positions), so the best agent of a strict vote has k - 1.
        double y = 0.0;
        for (size_t j = 0; j < k; ++j) {
          if (v.ranks[j] > v.ranks[i]) y += 1.0;
          if (j != i && v.ranks[j] == v.ranks[i]) y += 0.5;
        }
        gradient.Touch(v.agents[i]);
        gradient[v.agents[i]] -= v.weight * y;
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
          gradient[v.agents[i]] += share * rank;
        }
      }
    }
    // theta <- PROJ(theta - alpha g~_FY), g~_FY = (1/|B|) sum of the votes' gradients.
    gradient.ApplyAndClear(-o.alpha / static_cast<double>(o.batch), o.min, o.max, theta);
    if (progress && t % stride == 0) progress(t, o.iterations);
  }
  if (progress) progress(o.iterations, o.iterations);
  return theta;
}

}  // namespace ratings
