// The rank-disagreement metric (normalised Kendall tau between two models' rankings).
#include "daemon/ratingd/rank_disagreement.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::Pair;

// Independent check: brute force over all pairs.
TEST(RankDisagreementTest, EqualsBruteForcePairCount) {
  EXPECT_EQ(NormalizedKendallTau({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_EQ(NormalizedKendallTau({1, 2, 3}, {3, 2, 1}), 1.0);
  EXPECT_EQ(NormalizedKendallTau({1, 2, 3, 0}, {2, 1, 3, 4}), 1.0 / 3);  // agent 4 unranked in a
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 50; ++trial) {
    const size_t n = 2 + rng() % 60;
    std::vector<uint32_t> a(n), b(n);
    for (size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<uint32_t>(i + 1);
    std::shuffle(a.begin(), a.end(), rng);
    std::shuffle(b.begin(), b.end(), rng);
    double discordant = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) discordant += (a[i] < a[j]) != (b[i] < b[j]);
    }
    EXPECT_DOUBLE_EQ(NormalizedKendallTau(a, b), discordant / (n * (n - 1) / 2.0));
  }
}

}  // namespace
}  // namespace ratingd
