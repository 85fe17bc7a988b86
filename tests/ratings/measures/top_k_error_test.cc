#include "ratings/measures/top_k_error.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::StatusIs;

const std::vector<AgentId> kTruth = {0, 1, 2, 3};
const std::vector<AgentId> kRanking = {1, 0, 3, 2};

// [AE] Def. 3.1 by hand: top-1 {1} vs {0}: 1 - 0/1 = 1; top-2 {1,0} vs
// {0,1}: 0; top-3 {1,0,3} vs {0,1,2}: 1 - 2/3.
TEST(TopKErrorTest, IdentificationErrorByHand) {
  EXPECT_DOUBLE_EQ(*TopKIdentificationError(kRanking, kTruth, 1), 1.0);
  EXPECT_DOUBLE_EQ(*TopKIdentificationError(kRanking, kTruth, 2), 0.0);
  EXPECT_DOUBLE_EQ(*TopKIdentificationError(kRanking, kTruth, 3), 1.0 / 3);
}

// Def. 3.2 by hand, m = 4, alpha(k) = (4 - k)/3:
// k = 1: alpha 1, IDE 1 -> 1.
// k = 2: alpha 2/3, IDE 0; the truth's top 2 {0,1} in the ranking's order 1 > 0 vs 0 > 1:
//        K_n = 1 -> 1/3.
// k = 3: alpha 1/3, IDE 1/3; {0,1,2} in the ranking's order 1 > 0 > 2 vs 0 > 1 > 2:
//        K_n = 1/3 -> 1/9 + 2/9 = 1/3.
// k = 4: alpha 0; K_n(1 0 3 2, 0 1 2 3) = 2/6 -> 1/3.
TEST(TopKErrorTest, GeneralizedErrorByHand) {
  EXPECT_DOUBLE_EQ(*GeneralizedTopKError(kRanking, kTruth, 1), 1.0);
  EXPECT_DOUBLE_EQ(*GeneralizedTopKError(kRanking, kTruth, 2), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*GeneralizedTopKError(kRanking, kTruth, 3), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*GeneralizedTopKError(kRanking, kTruth, 4), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*GeneralizedTopKError(kTruth, kTruth, 2), 0.0);
}

// Def. 3.3: the mean over rounds; here (1 + 0) / 2 for k = 1.
TEST(TopKErrorTest, AverageOverRounds) {
  EXPECT_DOUBLE_EQ(*AverageGeneralizedTopKError({kRanking, kTruth}, kTruth, 1), 0.5);
  EXPECT_THAT(AverageGeneralizedTopKError({}, kTruth, 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

TEST(TopKErrorTest, RejectsMismatchedSetsAndBadK) {
  EXPECT_THAT(TopKIdentificationError(std::vector<AgentId>{0, 1, 2}, kTruth, 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(TopKIdentificationError(std::vector<AgentId>{0, 1, 2, 9}, kTruth, 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GeneralizedTopKError(kRanking, kTruth, 0).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(GeneralizedTopKError(kRanking, kTruth, 5).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings
