// The method table (docs/CONTRACTS.md §2.5): every method of `ratingctl rate` once, with the
// family and input the contract names, the unknown-method error, parameter checks before
// any input is read, and the spec of parameters (expected values written from the
// contract and the Options structs' documented defaults, not read from the registry).
#include "daemon/methods/method_registry.h"

#include <string>
#include <vector>

#include "daemon/deterministic_json.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(MethodRegistryTest, EveryMethodOnceWithItsFamilyAndInput) {
  std::vector<std::string> rows;
  for (const MethodInfo& m : Methods()) {
    rows.push_back(std::string(m.name) + " " + std::string(FamilyName(m.family)) + " " +
                   std::string(InputName(m.input)));
  }
  EXPECT_THAT(
      rows, ElementsAre("elo online results", "sco online results", "ml online results",
                        "glicko2 online results", "elo-bt batch votes", "sco-batch batch votes",
                        "sco-fy batch votes", "ml-exact voting votes", "iml voting votes",
                        "approval voting votes", "plurality voting votes", "borda voting votes",
                        "stv voting votes", "copeland voting votes", "kemeny voting votes",
                        "ranked-pairs voting votes", "schulze voting votes", "nash-avg nash scores",
                        "gt-ne game battles", "gt-cce game battles"));
}

TEST(MethodRegistryTest, UnknownMethodListsTheKnownOnes) {
  EXPECT_THAT(
      FindMethod("glicko"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("--method: unknown method 'glicko'; known: elo, sco, ml, glicko2, elo-bt, "
                         "sco-batch, sco-fy, ml-exact, iml, approval, plurality, borda, "
                         "stv, copeland, kemeny, ranked-pairs, schulze, nash-avg, gt-ne, "
                         "gt-cce")));
}

TEST(MethodRegistryTest, PrepareAppliesAndChecksParameters) {
  EXPECT_THAT(PrepareMethod({.method = "elo", .params = {"k=16"}}), IsOk());
  // Unknown key: the table's error lists the method's parameters.
  EXPECT_THAT(PrepareMethod({.method = "sco", .params = {"beta=1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown parameter 'beta' for method sco; known: alpha, tau, "
                                 "min, max")));
  // A value the table takes but the method's own check refuses.
  EXPECT_THAT(PrepareMethod({.method = "elo-bt", .params = {"tolerance=0"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tolerance")));
  EXPECT_THAT(PrepareMethod({.method = "sco-batch", .params = {"ci=sandwich"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bootstrap only")));
  EXPECT_THAT(PrepareMethod({.method = "gt-ne", .params = {"tie_tolerance=-1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("must be >= 0")));
  EXPECT_THAT(
      PrepareMethod({.method = "plurality", .params = {"k=2"}}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("(the method takes no parameters)")));
}

// One parameter's spec as JSON, for compact expectations.
std::string SpecJson(absl::string_view method, absl::string_view param) {
  auto found = FindMethod(method);
  if (!found.ok()) return "no method";
  for (const ParamSpec& spec : (*found)->make()->params().Specs()) {
    if (spec.name != param) continue;
    return spec.name + " " + std::string(ParamTypeName(spec.type)) + " " + spec.default_value +
           " [" + (spec.min ? std::to_string(*spec.min) : "null") +
           (spec.min_exclusive ? " excl" : "") + ", " +
           (spec.max ? std::to_string(*spec.max) : "null") + (spec.max_exclusive ? " excl" : "") +
           "] " + (spec.help.empty() ? "no help" : "help");
  }
  return "no param";
}

TEST(MethodRegistryTest, ParameterSpecsCarryTypeDefaultBoundsAndHelp) {
  // Defaults: ratings/elo.h (K 32), ratings/maximal_lottery.h (target 1e-3, variant prm+,
  // max_agents 4096), the voting rules' documented defaults (approval k 3, tolerance 1e-9).
  EXPECT_EQ(SpecJson("elo", "k"), "k number 32 [0.000000, null] help");
  EXPECT_EQ(SpecJson("ml", "target"), "target number 0.001 [0.000000 excl, null] help");
  EXPECT_EQ(SpecJson("ml", "variant"), "variant string prm+ [null, null] help");
  EXPECT_EQ(SpecJson("ml", "max_agents"), "max_agents integer 4096 [2.000000, null] help");
  EXPECT_EQ(SpecJson("approval", "k"), "k integer 3 [1.000000, 1073741824.000000] help");
  EXPECT_EQ(SpecJson("iml", "tolerance"),
            "tolerance number 1e-09 [0.000000 excl, 0.001000 excl] help");
  EXPECT_EQ(SpecJson("gt-ne", "p"), "p number 1 [0.000000 excl, 1.000000] help");
  EXPECT_EQ(SpecJson("gt-cce", "max_steps"), "max_steps integer 1000000 [1.000000, null] help");
  EXPECT_EQ(SpecJson("elo-bt", "ci"), "ci string none [null, null] help");
  EXPECT_EQ(SpecJson("elo-bt", "rounds"), "rounds integer 100 [2.000000, null] help");
  // ratings/glicko2.h: [G2]'s new player (1500, 350, 0.06), tau 0.5, and a day's period.
  EXPECT_EQ(SpecJson("glicko2", "rd"), "rd number 350 [0.000000, null] help");
  EXPECT_EQ(SpecJson("glicko2", "volatility"), "volatility number 0.06 [0.000000 excl, null] help");
  EXPECT_EQ(SpecJson("glicko2", "tau"), "tau number 0.5 [0.000000 excl, null] help");
  EXPECT_EQ(SpecJson("glicko2", "period"), "period string 24h [null, null] help");
}

TEST(MethodRegistryTest, EveryParameterHasHelp) {
  for (const MethodInfo& m : Methods()) {
    for (const ParamSpec& spec : m.make()->params().Specs()) {
      EXPECT_FALSE(spec.help.empty()) << m.name << " " << spec.name;
      EXPECT_FALSE(spec.default_value.empty()) << m.name << " " << spec.name;
    }
  }
}

// Every default, written back on the command line, is accepted and leaves the value as it
// was: the default text reads back to the default.
TEST(MethodRegistryTest, DefaultsReadBackOnTheCommandLine) {
  for (const MethodInfo& m : Methods()) {
    std::vector<std::string> params;
    for (const ParamSpec& spec : m.make()->params().Specs()) {
      params.push_back(spec.name + "=" + spec.default_value);
    }
    auto run = PrepareMethod({.method = std::string(m.name), .params = params});
    ASSERT_THAT(run, IsOk()) << m.name;
    EXPECT_EQ(*DeterministicJson((*run)->params().Values()),
              *DeterministicJson(m.make()->params().Values()))
        << m.name;
  }
}

TEST(MethodRegistryTest, DocumentListsEveryMethodWithTheContractsFields) {
  const google::protobuf::ListValue doc = MethodsDocument();
  ASSERT_EQ(doc.values_size(), 20);
  const auto& elo = doc.values(0).struct_value().fields();
  EXPECT_EQ(elo.at("name").string_value(), "elo");
  EXPECT_EQ(elo.at("family").string_value(), "online");
  EXPECT_EQ(elo.at("input").string_value(), "results");
  const auto& k = elo.at("params").list_value().values(0).struct_value().fields();
  EXPECT_EQ(k.at("name").string_value(), "k");
  EXPECT_EQ(k.at("type").string_value(), "number");
  EXPECT_EQ(k.at("default").string_value(), "32");
  EXPECT_EQ(k.at("min").number_value(), 0);
  EXPECT_TRUE(k.at("max").has_null_value());
  EXPECT_FALSE(k.at("min_exclusive").bool_value());
  EXPECT_FALSE(k.at("max_exclusive").bool_value());
  EXPECT_FALSE(k.at("help").string_value().empty());
}

TEST(MethodRegistryTest, HelpListsEveryMethodsDefaults) {
  const std::string help = MethodsHelp();
  EXPECT_THAT(help, HasSubstr("  elo: k (32), initial (1500)\n"));
  EXPECT_THAT(help, HasSubstr("  plurality: none\n"));
  for (const MethodInfo& m : Methods()) {
    EXPECT_THAT(help, HasSubstr("  " + std::string(m.name) + ": "));
  }
}

}  // namespace
}  // namespace ratingd
