#include "ratings/sco.h"

#include <algorithm>
#include <cmath>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "ratings/sco_internal.h"
#include "ratings/status_macros.h"

namespace ratings {

absl::StatusOr<Sco> Sco::Create(const ScoOptions& o) {
  RETURN_IF_ERROR(sco_internal::CheckPositive("sco", "alpha", o.alpha));
  RETURN_IF_ERROR(sco_internal::CheckPositive("sco", "tau", o.tau));
  RETURN_IF_ERROR(sco_internal::CheckBounds("sco", o.min, o.max));
  return Sco(o);
}

void Sco::Resize(size_t n) {
  if (n > ratings_.size()) ratings_.resize(n, (options_.min + options_.max) / 2.0);
}

void Sco::Update(const IndexedResult& result) {
  const size_t k = result.size();
  const double rate = options_.alpha * result.weight / options_.tau;
  absl::InlinedVector<double, 8> gradient(k, 0.0);
  sco_internal::ForEachOrderedPair(result.ranks, [&](size_t a, size_t b) {
    // a strictly above b. s = sigma((theta_b - theta_a)/tau); d/dtheta_a of s is
    // -s(1-s)/tau (Eq. 5, 7).
    const double x = (ratings_[result.agents[b]] - ratings_[result.agents[a]]) / options_.tau;
    const double s = 1.0 / (1.0 + std::exp(-x));
    const double move = rate * s * (1.0 - s);
    gradient[a] += move;
    gradient[b] -= move;
  });
  // PROJ of Algorithm 1 line 4: clip to the hypercube.
  for (size_t i = 0; i < k; ++i) {
    double& theta = ratings_[result.agents[i]];
    theta = std::clamp(theta + gradient[i], options_.min, options_.max);
  }
}

absl::Status Sco::Restore(std::vector<double> ratings) {
  for (size_t i = 0; i < ratings.size(); ++i) {
    if (!(ratings[i] >= options_.min && ratings[i] <= options_.max)) {
      return absl::InvalidArgumentError(absl::StrCat("sco: rating of agent #", i, " (", ratings[i],
                                                     ") is outside [", options_.min, ", ",
                                                     options_.max, "]"));
    }
  }
  ratings_ = std::move(ratings);
  return absl::OkStatus();
}

}  // namespace ratings
