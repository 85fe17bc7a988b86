#include "ratings/bounded_exp.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gtest/gtest.h"

namespace ratings {
namespace {

using FloatLanes = Eigen::Array<float, 8, 1>;

TEST(BoundedExpTest, WithinSingleRoundingsOfExpOverTheWholeRange) {
  // Independent reference: std::exp in double precision of the same float inputs. Every
  // 2^-10 over [-80, 80] (163,841 points, eight per call); the bound is Cephes' expf's
  // (about one single-precision rounding).
  double worst = 0.0;
  FloatLanes x;
  int filled = 0;
  const auto check = [&] {
    const FloatLanes y = BoundedExp<8>(x);
    for (int l = 0; l < filled; ++l) {
      const double want = std::exp(static_cast<double>(x[l]));
      worst = std::max(worst, std::abs(static_cast<double>(y[l]) - want) / want);
      ASSERT_TRUE(std::isnormal(y[l])) << x[l];
    }
    filled = 0;
  };
  for (int i = -80 * 1024; i <= 80 * 1024; ++i) {
    x[filled++] = static_cast<float>(i) / 1024.0f;
    if (filled == 8) check();
  }
  if (filled > 0) {
    for (int l = filled; l < 8; ++l) x[l] = 0.0f;
    check();
  }
  EXPECT_LT(worst, 1.5e-7);  // 7.8e-8 here
  std::ostringstream worst_text;
  worst_text << worst;
  RecordProperty("worst_relative_error", worst_text.str());
}

TEST(BoundedExpTest, ZeroGivesExactlyOne) {
  // m = 0 and r = 0: the polynomial's constant term alone (hand calculation). The replicas'
  // equal ratings then give a pair term of exactly 1/2.
  const FloatLanes y = BoundedExp<8>(FloatLanes::Zero());
  for (int l = 0; l < 8; ++l) EXPECT_EQ(y[l], 1.0f);
}

TEST(BoundedExpTest, SixteenLanesGiveTheBitsOfTwiceEight) {
  // The replicas are updated 16 or 8 at a time: a lane's value must not depend on which.
  Eigen::Array<float, 16, 1> x;
  for (int l = 0; l < 16; ++l) x[l] = -80.0f + 10.3f * static_cast<float>(l);
  const Eigen::Array<float, 16, 1> wide = BoundedExp<16>(x);
  const FloatLanes low = BoundedExp<8>(FloatLanes(x.head<8>()));
  const FloatLanes high = BoundedExp<8>(FloatLanes(x.tail<8>()));
  for (int l = 0; l < 8; ++l) {
    EXPECT_EQ(wide[l], low[l]) << l;
    EXPECT_EQ(wide[8 + l], high[l]) << l;
  }
}

}  // namespace
}  // namespace ratings
