#include "ratings/elo.h"

#include <cmath>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

namespace ratings {

absl::StatusOr<Elo> Elo::Create(const EloOptions& options) {
  if (!std::isfinite(options.k) || options.k < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("elo: k must be finite and >= 0, got ", options.k));
  }
  if (!std::isfinite(options.initial)) {
    return absl::InvalidArgumentError("elo: initial must be finite");
  }
  return Elo(options);
}

void Elo::Resize(size_t n) {
  if (n > ratings_.size()) ratings_.resize(n, options_.initial);
}

double Elo::Expected(double rating_i, double rating_j) {
  return 1.0 / (1.0 + std::pow(10.0, (rating_j - rating_i) / 400.0));
}

void Elo::Update(const IndexedResult& result) {
  const size_t k = result.size();
  // Each pair moves by K/(k-1), scaled by the weight (docs/MODELS.md §2).
  const double step = options_.k * result.weight / static_cast<double>(k - 1);
  absl::InlinedVector<double, 8> delta(k, 0.0);
  for (size_t i = 0; i < k; ++i) {
    const double ri = ratings_[result.agents[i]];
    for (size_t j = i + 1; j < k; ++j) {
      const double rj = ratings_[result.agents[j]];
      const double actual = result.ranks[i] < result.ranks[j]    ? 1.0
                            : result.ranks[i] == result.ranks[j] ? 0.5
                                                                 : 0.0;
      // E_ji = 1 - E_ij, so the pair's two moves cancel and the total is conserved. The
      // move is computed from the lower-rated agent's side (the earlier standing's on equal
      // ratings, where both sides agree exactly): in floating point E_ij and 1 - E_ji differ
      // in the last bit, and agents with equal ratings in the same place of a result must get
      // bit-identical moves whatever their standing order (docs/MODELS.md §9).
      const double move = rj < ri ? -(step * ((1.0 - actual) - Expected(rj, ri)))
                                  : step * (actual - Expected(ri, rj));
      delta[i] += move;
      delta[j] -= move;
    }
  }
  for (size_t i = 0; i < k; ++i) ratings_[result.agents[i]] += delta[i];
}

absl::Status Elo::Restore(std::vector<double> ratings) {
  for (size_t i = 0; i < ratings.size(); ++i) {
    if (!std::isfinite(ratings[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("elo: rating of agent #", i, " is not finite"));
    }
  }
  ratings_ = std::move(ratings);
  return absl::OkStatus();
}

}  // namespace ratings
