// An exact sum of doubles and of products of doubles, for the scores that must tie exactly
// when they are equal (docs/MODELS.md §9, "Exact ties"): the points of the positional rules.
// The sum is kept as a nonoverlapping expansion (Shewchuk 1997, "Adaptive precision
// floating-point arithmetic and fast robust geometric predicates", §2): doubles of
// increasing magnitude whose exact sum is the value, so no addition ever rounds.
#pragma once

#include "absl/container/inlined_vector.h"

namespace ratings::voting {

// Exact while no intermediate magnitude overflows a double (|value| < 2^1023); every
// finite double and every product of two doubles is added without rounding. Memory: a few
// doubles (one per 53-bit stretch of the value's binary expansion, usually one or two).
class ExactSum {
 public:
  ExactSum() = default;
  explicit ExactSum(double x) { Add(x); }

  // this += x, exactly.
  void Add(double x);
  // this += other, exactly.
  void Add(const ExactSum& other);
  // this *= factor, exactly.
  void Scale(double factor);

  // The double nearest to the exact value (ties to even): equal sums give equal doubles,
  // and a larger sum never gives a smaller double.
  double Value() const;
  // -1, 0 or 1: the sign of the exact value.
  int Sign() const;
  bool IsZero() const { return parts_.empty(); }

 private:
  absl::InlinedVector<double, 2> parts_;  // nonzero, nonoverlapping, increasing magnitude
};

// -1, 0 or 1 as a < b, a == b, a > b, exactly.
int Compare(const ExactSum& a, const ExactSum& b);

}  // namespace ratings::voting
