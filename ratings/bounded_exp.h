// e^x for |x| <= 80, N lanes at a time in single precision: the exponential of the
// online bootstrap's logistics (ratings/online_bootstrap.cc, docs/MODELS.md §5.6).
//
// It is Eigen's single-precision exp (Cephes' expf: x = m ln2 + r with |r| <= ln2/2, e^r
// by a degree-6 polynomial, relative error ~1e-7) with the two steps that make Eigen's
// general version cost some 100 instructions per packet of four on baseline x86-64
// replaced by what the bounded range allows:
//  - m = round(x log2 e) by adding and subtracting 1.5 · 2^23 (SSE2 has no rounding
//    instruction; Eigen emulates floor), and
//  - 2^m written straight into a float's exponent bits: |m| <= 116, so 2^m is a normal
//    float (Eigen's ldexp also covers exponents beyond).
#pragma once

#include <cstdint>
#include <cstring>

#include "Eigen/Core"

namespace ratings {

// Largest |x| BoundedExp takes: e^80 = 5.5e34 and e^-80 = 1.8e-35 are normal floats, and
// so are their sums with 1 and their reciprocals.
inline constexpr float kBoundedExpLimit = 80.0f;

// Precondition: |x| <= kBoundedExpLimit in every lane (callers clamp). Lane by lane, so a
// lane's result does not depend on N. Inlined always: as a call, its constants and lanes
// went through memory each time.
template <int N>
[[gnu::always_inline]] inline Eigen::Array<float, N, 1> BoundedExp(
    const Eigen::Array<float, N, 1>& x) {
  using Lanes = Eigen::Array<float, N, 1>;
  constexpr float kRound = 12582912.0f;  // 1.5 · 2^23: y + kRound - kRound rounds y
  const Lanes m = (x * 1.44269504088896341f + kRound) - kRound;
  // r = x - m ln2, with ln2 in two parts (0.693359375 has few bits, so m times it is exact).
  const Lanes r = (x - m * 0.693359375f) + m * 2.12194440e-4f;
  Lanes p = 1.9875691500e-4f * r + 1.3981999507e-3f;  // Horner, Cephes' coefficients
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const Lanes e_r = p * (r * r) + r + 1.0f;
  const Eigen::Array<int32_t, N, 1> bits =
      (m.template cast<int32_t>() + 127).template shiftLeft<23>();
  Lanes two_to_m;
  std::memcpy(two_to_m.data(), bits.data(), sizeof(two_to_m));
  return e_r * two_to_m;
}

}  // namespace ratings
