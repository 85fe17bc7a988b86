#include "ratings/voting/exact_sum.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ratings::voting {
namespace {

// s + err == a + b exactly, s = fl(a + b) (Knuth's TwoSum, any magnitudes).
inline void TwoSum(double a, double b, double& s, double& err) {
  s = a + b;
  const double bv = s - a;
  const double av = s - bv;
  err = (a - av) + (b - bv);
}

// p + err == a * b exactly, p = fl(a * b) (no underflow: the error is then a double).
inline void TwoProduct(double a, double b, double& p, double& err) {
  p = a * b;
  err = std::fma(a, b, -p);
}

bool EvenMantissa(double x) {
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 1u) == 0;
}

}  // namespace

void ExactSum::Add(double x) {
  // Shewchuk's Grow-Expansion with zero elimination: the result stays nonoverlapping.
  if (x == 0.0) return;
  double q = x;
  size_t n = 0;
  for (size_t i = 0; i < parts_.size(); ++i) {
    double s = 0.0, err = 0.0;
    TwoSum(q, parts_[i], s, err);
    if (err != 0.0) parts_[n++] = err;
    q = s;
  }
  parts_.resize(n);
  if (q != 0.0) parts_.push_back(q);
}

void ExactSum::Add(const ExactSum& other) {
  if (&other == this) {
    Scale(2.0);
    return;
  }
  for (double p : other.parts_) Add(p);
}

void ExactSum::Scale(double factor) {
  // Shewchuk's Scale-Expansion with zero elimination (TwoSum in place of Fast-Two-Sum).
  if (parts_.empty()) return;
  if (factor == 0.0) {
    parts_.clear();
    return;
  }
  absl::InlinedVector<double, 4> out;
  double q = 0.0, h = 0.0;
  TwoProduct(parts_[0], factor, q, h);
  if (h != 0.0) out.push_back(h);
  for (size_t i = 1; i < parts_.size(); ++i) {
    double product = 0.0, low = 0.0, sum = 0.0;
    TwoProduct(parts_[i], factor, product, low);
    TwoSum(q, low, sum, h);
    if (h != 0.0) out.push_back(h);
    TwoSum(product, sum, q, h);
    if (h != 0.0) out.push_back(h);
  }
  if (q != 0.0) out.push_back(q);
  parts_.assign(out.begin(), out.end());
}

int ExactSum::Sign() const {
  // In a nonoverlapping expansion the largest part outweighs all the others together.
  if (parts_.empty()) return 0;
  return parts_.back() > 0.0 ? 1 : -1;
}

double ExactSum::Value() const {
  if (parts_.empty()) return 0.0;
  double x = 0.0;
  for (double p : parts_) x += p;  // within a few units in the last place
  // Move x to the nearest double: r = value - x, compared exactly with half the gap to
  // the neighbour of x on r's side.
  for (int step = 0; step < 64 && std::isfinite(x); ++step) {
    ExactSum r = *this;
    r.Add(-x);
    const int side = r.Sign();
    if (side == 0) break;
    const double next = std::nextafter(x, side * std::numeric_limits<double>::infinity());
    ExactSum twice = r;
    twice.Scale(2.0);
    // > 0: r is past half the gap (next - x, exact for neighbouring doubles) towards next.
    const int past = side * Compare(twice, ExactSum(next - x));
    if (past > 0) {
      x = next;
      continue;
    }
    if (past == 0 && !EvenMantissa(x)) x = next;
    break;
  }
  return x;
}

int Compare(const ExactSum& a, const ExactSum& b) {
  ExactSum difference = b;
  difference.Scale(-1.0);
  difference.Add(a);
  return difference.Sign();
}

}  // namespace ratings::voting
