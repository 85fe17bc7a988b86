// Command-line handling shared by both programs: repeated flags, dashes normalised.
#include "daemon/flags.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;

TEST(FlagsTest, TakesRepeatedFlagsAndNormalisesDashes) {
  std::vector<std::string> args = {
      "prog",    "--param", "elo.k=1", "--results-topic=t", "--param=sco.tau=2",
      "--kafka", "a=b",     "--",      "--param",           "x"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  NormalizeFlagDashes(argc, argv.data());
  EXPECT_EQ(std::string(argv[3]), "--results_topic=t");
  EXPECT_THAT(TakeRepeatedFlag(argc, argv.data(), "param"), ElementsAre("elo.k=1", "sco.tau=2"));
  EXPECT_THAT(TakeRepeatedFlag(argc, argv.data(), "kafka"), ElementsAre("a=b"));
  ASSERT_EQ(argc, 5);  // prog, --results_topic=t, --, --param, x (after "--": untouched)
  EXPECT_EQ(std::string(argv[2]), "--");
  EXPECT_EQ(std::string(argv[3]), "--param");
  EXPECT_EQ(argv[5], nullptr);
}

}  // namespace
}  // namespace ratingd
