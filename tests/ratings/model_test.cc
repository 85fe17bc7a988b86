// Model names: the strings of flags, keys and reports, and their round trip.
#include "ratings/model.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratings {
namespace {

TEST(ModelTest, NamesAreTheWireStrings) {
  EXPECT_EQ(ModelName(Model::kElo), "elo");
  EXPECT_EQ(ModelName(Model::kSco), "sco");
  EXPECT_EQ(ModelName(Model::kMl), "ml");
  EXPECT_EQ(ModelName(Model::kGlicko2), "glicko2");
}

TEST(ModelTest, ParseInvertsNameAndRefusesEverythingElse) {
  for (Model m : kModels) EXPECT_EQ(ParseModel(ModelName(m)), m);
  EXPECT_EQ(ParseModel("ELO"), std::nullopt);
  EXPECT_EQ(ParseModel("typo"), std::nullopt);
  EXPECT_EQ(ParseModel(""), std::nullopt);
}

}  // namespace
}  // namespace ratings
