// Portable random draws from a seeded std::mt19937_64 (randomness comes in as a seed). The
// standard distributions (uniform_int_distribution, normal_distribution) are
// implementation-defined, so the same seed could give other numbers with another standard
// library; these are written out so that a seed gives the same draws everywhere.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <random>

#include "absl/types/span.h"

namespace ratings {

// Uniform integer in [0, n). Precondition: n >= 1. Lemire's multiply-shift with rejection
// ("Fast random integer generation in an interval", 2019): unbiased, and a division only
// in the rare rejection branch.
__extension__ using SeededDrawsUint128 = unsigned __int128;  // GCC/Clang; -Wpedantic-clean
inline uint64_t UniformIndex(std::mt19937_64& rng, uint64_t n) {
  SeededDrawsUint128 m = static_cast<SeededDrawsUint128>(rng()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<SeededDrawsUint128>(rng()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

// Uniform double in [0, 1) with 53 random bits.
inline double Uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Uniform double in (0, 1): never 0, so log() of it is finite.
inline double UniformOpen01(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
}

// Standard normal by Box–Muller (one of the pair; simple over fast).
inline double StandardNormal(std::mt19937_64& rng) {
  const double u1 = UniformOpen01(rng);
  const double u2 = Uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// An index drawn with probability proportional to weights[i] (non-negative, not all
// zero): one uniform draw walked down the weights. If rounding leaves it past the end, the
// last index of positive weight.
inline size_t DrawWeighted(absl::Span<const double> weights, std::mt19937_64& rng) {
  double total = 0;
  for (double w : weights) total += w;
  double u = Uniform01(rng) * total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (u < weights[i]) return i;
    u -= weights[i];
  }
  for (size_t i = weights.size(); i > 0; --i) {
    if (weights[i - 1] > 0) return i - 1;
  }
  return 0;
}

// Standard Gumbel (location 0, scale 1): -log(-log U).
inline double StandardGumbel(std::mt19937_64& rng) {
  return -std::log(-std::log(UniformOpen01(rng)));
}

}  // namespace ratings
