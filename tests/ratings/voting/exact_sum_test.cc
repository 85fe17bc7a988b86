// ExactSum against closed forms: sums whose exact value is known (powers of two, decimal
// doubles whose binary expansions are written out below) and a brute-force check against
// exact rational arithmetic on integers.
#include "ratings/voting/exact_sum.h"

#include <cmath>
#include <cstdint>
#include <random>

#include "gtest/gtest.h"

namespace ratings::voting {
namespace {

TEST(ExactSumTest, TenthsSumToTheirExactValue) {
  // The double 0.1 is 0.1 + 5.55e-18 (3602879701896397 / 2^55), so ten of them are
  // 1 + 5.55e-17: above 1 exactly, and 1.0 once rounded (the next double is 1 + 2.2e-16).
  ExactSum tenths;
  double naive = 0.0;
  for (int i = 0; i < 10; ++i) {
    tenths.Add(0.1);
    naive += 0.1;
  }
  EXPECT_EQ(naive, 0.9999999999999999);  // the rounding an ordinary loop makes
  EXPECT_EQ(tenths.Value(), 1.0);
  EXPECT_EQ(Compare(tenths, ExactSum(1.0)), 1);
  // 3602879701896397 * 10 / 2^55, from integers: the same value.
  ExactSum direct(3602879701896397.0 * 8.0);  // 2^3 * 3602879701896397 < 2^55: exact
  direct.Add(3602879701896397.0 * 2.0);
  direct.Scale(std::ldexp(1.0, -55));
  EXPECT_EQ(Compare(tenths, direct), 0);
}

TEST(ExactSumTest, TheSameTermsInAnyOrderAreEqual) {
  // (0.1 + 0.2) + 0.3 = 0.6000000000000001 and (0.3 + 0.2) + 0.1 = 0.6 in doubles.
  ExactSum up, down;
  for (double x : {0.1, 0.2, 0.3}) up.Add(x);
  for (double x : {0.3, 0.2, 0.1}) down.Add(x);
  EXPECT_EQ(Compare(up, down), 0);
  EXPECT_EQ(up.Value(), down.Value());
}

TEST(ExactSumTest, ValueRoundsToNearestTiesToEven) {
  const double ulp_half = std::ldexp(1.0, -53);  // half the gap above 1
  ExactSum halfway(1.0);
  halfway.Add(ulp_half);
  EXPECT_EQ(halfway.Value(), 1.0);  // 1 has an even mantissa
  ExactSum above = halfway;
  above.Add(std::ldexp(1.0, -120));
  EXPECT_EQ(above.Value(), 1.0 + 2 * ulp_half);
  ExactSum odd(1.0 + 2 * ulp_half);
  odd.Add(ulp_half);  // halfway between an odd and an even mantissa: the even one
  EXPECT_EQ(odd.Value(), 1.0 + 4 * ulp_half);
  ExactSum zero(1e300);
  zero.Add(-1e300);
  EXPECT_TRUE(zero.IsZero());
  EXPECT_EQ(zero.Value(), 0.0);
}

TEST(ExactSumTest, ProductsAndScalingAreExact) {
  // (2^53 - 1)^2 needs 106 bits: exact as an expansion, 2^106 - 2^54 + 1.
  const double big = std::ldexp(1.0, 53) - 1.0;
  ExactSum square(big);
  square.Scale(big);
  ExactSum expected(std::ldexp(1.0, 106));
  expected.Add(-std::ldexp(1.0, 54));
  expected.Add(1.0);
  EXPECT_EQ(Compare(square, expected), 0);
  square.Add(square);  // doubling itself
  expected.Scale(2.0);
  EXPECT_EQ(Compare(square, expected), 0);
}

TEST(ExactSumTest, MatchesIntegerArithmeticOnRandomTerms) {
  // Terms k / 2^20 with |k| < 2^40: every partial sum is an integer multiple of 2^-20
  // below 2^62 units, so int64 arithmetic gives the exact answer to compare with.
  std::mt19937_64 rng(12);
  std::uniform_int_distribution<int64_t> term(-(int64_t{1} << 40), int64_t{1} << 40);
  for (int trial = 0; trial < 200; ++trial) {
    ExactSum a, b;
    int64_t ka = 0, kb = 0;
    for (int i = 0; i < 50; ++i) {
      const int64_t x = term(rng);
      ka += x;
      a.Add(std::ldexp(static_cast<double>(x), -20));
    }
    if (trial % 3 == 0) {  // equal sums reached through different terms
      for (int i = 0; i < 7; ++i) {
        const int64_t part = ka / 7 + (i == 0 ? ka % 7 : 0);
        kb += part;
        b.Add(std::ldexp(static_cast<double>(part), -20));
      }
    } else {
      for (int i = 0; i < 50; ++i) {
        const int64_t y = term(rng);
        kb += y;
        b.Add(std::ldexp(static_cast<double>(y), -20));
      }
    }
    EXPECT_EQ(Compare(a, b), ka < kb ? -1 : ka > kb ? 1 : 0);
    EXPECT_EQ(a.Sign(), ka < 0 ? -1 : ka > 0 ? 1 : 0);
  }
}

}  // namespace
}  // namespace ratings::voting
