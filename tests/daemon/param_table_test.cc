// ParamTable, the one `--param key=value` parser: each value kind, every error message
// (written out by hand from the contract in param_table.h), the echo, scoped assignments.
#include "daemon/param_table.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;

struct Options {
  double alpha = 0.5;
  int64_t iterations = 10;
  size_t agents = 4;
  int k = 3;
  size_t cap = 8;
  std::string mode = "fast";
};

ParamTable TableOver(Options& o) {
  ParamTable table("demo");
  table.Add("alpha", &o.alpha)
      .Add("iterations", &o.iterations)
      .Add("agents", &o.agents)
      .Add("k", &o.k, 1, 5)
      .Add("cap", &o.cap, 2, 25)
      .Add(
          "mode",
          [&o](absl::string_view v) {
            if (v != "fast" && v != "slow") {
              return absl::InvalidArgumentError("not fast or slow");
            }
            o.mode = std::string(v);
            return absl::OkStatus();
          },
          [&o] {
            google::protobuf::Value v;
            v.set_string_value(o.mode);
            return v;
          });
  return table;
}

TEST(ParamTableTest, SetsEachKindOfField) {
  Options o;
  ParamTable table = TableOver(o);
  ASSERT_THAT(table.Apply(std::vector<std::string>{"alpha=0.25", "iterations=-7", "agents=12",
                                                   "k=5", "cap=2", "mode=slow"}),
              IsOk());
  EXPECT_EQ(o.alpha, 0.25);
  EXPECT_EQ(o.iterations, -7);
  EXPECT_EQ(o.agents, 12u);
  EXPECT_EQ(o.k, 5);
  EXPECT_EQ(o.cap, 2u);
  EXPECT_EQ(o.mode, "slow");
}

TEST(ParamTableTest, ErrorsNameTheKeyTheMethodAndTheProblem) {
  Options o;
  ParamTable table = TableOver(o);
  const struct {
    std::string assignment;
    std::string message;
  } cases[] = {
      {"alpha", "--param 'alpha': expected key=value"},
      {"=1", "--param '=1': expected key=value"},
      {"beta=1",
       "--param: unknown parameter 'beta' for method demo; known: alpha, iterations, agents, k, "
       "cap, mode"},
      {"alpha=x", "--param alpha (demo): 'x' is not a number"},
      {"iterations=1.5", "--param iterations (demo): '1.5' is not an integer"},
      {"agents=-1", "--param agents (demo): '-1' is not a non-negative integer"},
      {"k=6", "--param k (demo): '6' is not an integer in [1, 5]"},
      {"k=0", "--param k (demo): '0' is not an integer in [1, 5]"},
      {"cap=26", "--param cap (demo): '26' is not an integer in [2, 25]"},
      {"mode=medium", "--param mode (demo): not fast or slow"},
  };
  for (const auto& c : cases) {
    EXPECT_THAT(table.Apply(c.assignment), StatusIs(absl::StatusCode::kInvalidArgument, c.message))
        << c.assignment;
  }
  // A failed assignment leaves its field as it was.
  EXPECT_EQ(o.alpha, 0.5);
  EXPECT_EQ(o.k, 3);
  EXPECT_EQ(o.cap, 8u);
}

TEST(ParamTableTest, AnEmptyTableSaysTheMethodTakesNoParameters) {
  ParamTable table("plurality");
  EXPECT_THAT(table.Apply("k=1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--param: unknown parameter 'k' for method plurality (the method takes "
                       "no parameters)"));
  EXPECT_TRUE(table.Keys().empty());
}

TEST(ParamTableTest, ValuesEchoEveryEffectiveParameter) {
  Options o;
  ParamTable table = TableOver(o);
  ASSERT_THAT(table.Apply("alpha=2"), IsOk());
  const google::protobuf::Struct values = table.Values();
  EXPECT_THAT(table.Keys(), ElementsAre("alpha", "iterations", "agents", "k", "cap", "mode"));
  EXPECT_EQ(values.fields().at("alpha").number_value(), 2.0);
  EXPECT_EQ(values.fields().at("iterations").number_value(), 10.0);
  EXPECT_EQ(values.fields().at("agents").number_value(), 4.0);
  EXPECT_EQ(values.fields().at("k").number_value(), 3.0);
  EXPECT_EQ(values.fields().at("cap").number_value(), 8.0);
  EXPECT_EQ(values.fields().at("mode").string_value(), "fast");
}

TEST(ParamTableTest, ScopedAssignmentsSplitAtTheSeparatorBeforeTheEquals) {
  std::optional<ScopedParam> p = SplitScopedParam("elo.k=16", '.');
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->scope, "elo");
  EXPECT_EQ(p->assignment, "k=16");
  p = SplitScopedParam("sco-batch:alpha=0.5", ':');
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->scope, "sco-batch");
  EXPECT_EQ(p->assignment, "alpha=0.5");
  // The separator inside the value does not scope it.
  EXPECT_FALSE(SplitScopedParam("alpha=0.5", '.').has_value());
  EXPECT_FALSE(SplitScopedParam("k=3", ':').has_value());
  EXPECT_FALSE(SplitScopedParam("url=a:b", ':').has_value());
}

}  // namespace
}  // namespace ratingd
