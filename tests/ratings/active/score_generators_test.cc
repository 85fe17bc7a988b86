#include "ratings/active/score_generators.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/active/top_k_scorer.h"
#include "ratings/generators/generated_profile.h"
#include "ratings/io/read_results.h"
#include "tests/testing/status_matchers.h"

namespace ratings::active {
namespace {

using ::ratings::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// §3.2.1: the means of each task follow its Mallows ranking (the same seed's
// ratings/generators profile), lie in [low, high], and every std is sigma.
TEST(ScoreGeneratorsTest, MallowsMeansFollowTheTaskRankings) {
  const ScoreGeneratorOptions options{.kind = GeneratorKind::kMallows, .phi = 0.6};
  const ScoreModel model = *GenerateScoreModel(options, 42);
  const GeneratedProfile profile =
      *GenerateMallows({.agents = 8, .tasks = 50, .dispersion = 0.6, .seed = 42});
  ASSERT_EQ(model.tasks(), 50u);
  ASSERT_EQ(model.agents(), 8u);
  EXPECT_EQ(model.truth(), profile.truth);
  for (TaskId v = 0; v < 50; ++v) {
    const std::vector<AgentId>& order = profile.orders[v];
    for (size_t pos = 0; pos < order.size(); ++pos) {
      EXPECT_GE(model.mean(v, order[pos]), 0.0);
      EXPECT_LE(model.mean(v, order[pos]), 100.0);
      EXPECT_EQ(model.stddev(v, order[pos]), 20.0);
      if (pos > 0) {
        EXPECT_GT(model.mean(v, order[pos - 1]), model.mean(v, order[pos]));
      }
    }
  }
}

// App. C.1 with one clone: it sits directly ahead of (or behind) its original in every
// task, with mean mu_a + ε (mu_b - mu_a), b the original directly above (below) a, or the
// bound 100 (0) at the edge — recomputed here from the originals' means.
TEST(ScoreGeneratorsTest, OneCloneHasThePerturbedMeanBesideItsOriginal) {
  ScoreGeneratorOptions options{.kind = GeneratorKind::kClones, .clones = 1, .epsilon = 0.25};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const ScoreModel model = *GenerateScoreModel(options, seed);
    ASSERT_EQ(model.agents(), 9u);
    ASSERT_EQ(model.truth().size(), 8u);  // the originals only
    const std::string& name = model.names()[8];
    ASSERT_THAT(name, HasSubstr("-clone1"));
    const AgentId of = static_cast<AgentId>(std::stoi(name.substr(1, name.find('-') - 1)));
    const bool ahead = model.mean(0, 8) > model.mean(0, of);
    for (TaskId v = 0; v < model.tasks(); ++v) {
      const double mu = model.mean(v, of);
      double b = ahead ? 100.0 : 0.0;
      for (AgentId o = 0; o < 8; ++o) {
        const double other = model.mean(v, o);
        if (ahead && other > mu && other < b) b = other;
        if (!ahead && other < mu && other > b) b = other;
      }
      EXPECT_NEAR(model.mean(v, 8), mu + 0.25 * (b - mu), 1e-12)
          << "seed " << seed << " task " << v;
    }
  }
}

// The spec's Atari facts, checked on the vendored Agent57 table ([AE] §5.2.1):
// normalisation by hand on one cell, the Kemeny truth and its score, and the GRE of the
// uniform-averaging limit (the mean of the normalised means), which UNIFORMAVERAGING and
// BASICUCB cannot beat.
class AtariTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto content =
        io::ReadFileContent(std::string(RATINGD_TEST_DATA) + "/atari/atari_agent57_table.txt");
    ASSERT_TRUE(content.ok()) << content.status();
    auto table = io::ParseScoreTable(*content, "atari_agent57_table.txt", {});
    ASSERT_TRUE(table.ok()) << table.status();
    options_.kind = GeneratorKind::kTable;
    options_.table_agents = table->agents;
    options_.table_means = table->means;
    options_.table_stds = table->stds;
    auto model = GenerateScoreModel(options_, 0);
    ASSERT_TRUE(model.ok()) << model.status();
    model_.emplace(*std::move(model));
  }
  AgentId Id(const std::string& name) const {
    const auto& names = model_->names();
    return static_cast<AgentId>(std::find(names.begin(), names.end(), name) - names.begin());
  }
  ScoreGeneratorOptions options_;
  std::optional<ScoreModel> model_;
};

TEST_F(AtariTest, NormalisesEachGameToZeroHundred) {
  // alien: random 227.80 is the minimum, muzero 741812.63 the maximum;
  // agent57 297638.17±37054.55.
  const double range = 741812.63 - 227.80;
  EXPECT_NEAR(model_->mean(0, Id("agent57")), 100 * (297638.17 - 227.80) / range, 1e-9);
  EXPECT_NEAR(model_->stddev(0, Id("agent57")), 100 * 37054.55 / range, 1e-9);
  EXPECT_NEAR(model_->mean(0, Id("random")), 0.0, 1e-12);
  EXPECT_NEAR(model_->mean(0, Id("muzero")), 100.0, 1e-12);
  EXPECT_EQ(model_->stddev(0, Id("muzero")), 0.0);  // no ±std in the table
  EXPECT_EQ(model_->tasks(), 57u);
}

TEST_F(AtariTest, TruthIsTheKemenyRankingOfTheGames) {
  std::vector<std::string> truth;
  for (AgentId a : model_->truth()) truth.push_back(model_->names()[a]);
  EXPECT_THAT(truth, ElementsAre("r2d2(bandit)", "muzero", "r2d2", "agent57", "r2d2(retrace)",
                                 "ngu", "human", "random"));
  // Kemeny score with tied means counting for neither agent: 1284 (runner-up 1282).
  EXPECT_DOUBLE_EQ(KemenyOfMeans(options_.table_means)->score, 1284.0);
}

TEST_F(AtariTest, UniformAveragingLimitHasTheSpecGre) {
  std::vector<double> average(model_->agents(), 0.0);
  for (TaskId v = 0; v < model_->tasks(); ++v) {
    for (AgentId a = 0; a < model_->agents(); ++a) average[a] += model_->mean(v, a) / 57.0;
  }
  EXPECT_NEAR(average[Id("r2d2(bandit)")], 80.58, 0.005);
  EXPECT_NEAR(average[Id("agent57")], 77.79, 0.005);
  EXPECT_NEAR(average[Id("random")], 0.90, 0.005);
  std::vector<AgentId> order(model_->agents());
  for (AgentId a = 0; a < order.size(); ++a) order[a] = a;
  std::sort(order.begin(), order.end(),
            [&](AgentId a, AgentId b) { return average[a] > average[b]; });
  // By hand: top-3 {r2d2(bandit), agent57, muzero} vs the truth's {r2d2(bandit), muzero,
  // r2d2}: IDE 1/3, α(3) = 5/7, the truth's top 3 in the limit's order r2d2(bandit),
  // muzero, r2d2 is unchanged: K_n 0 -> 5/21 = 0.2381. k = 8: α 0, one swapped pair of 28
  // (agent57 above muzero and r2d2: 2 pairs) -> 2/28 = 0.0714.
  EXPECT_NEAR(TopKScorer(model_->truth(), 8, 3).Gre(order), 5.0 / 21, 1e-12);
  EXPECT_NEAR(TopKScorer(model_->truth(), 8, 8).Gre(order), 2.0 / 28, 1e-12);
  EXPECT_EQ(TopKScorer(model_->truth(), 8, 1).Gre(order), 0.0);
}

TEST(ScoreGeneratorsTest, RejectsBadParameters) {
  EXPECT_THAT(GenerateScoreModel({.low = 5, .high = 5}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("low < high")));
  EXPECT_THAT(GenerateScoreModel({.sigma = -1}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sigma")));
  EXPECT_THAT(GenerateScoreModel({.kind = GeneratorKind::kClones, .epsilon = 1.5}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("epsilon")));
  EXPECT_THAT(GenerateScoreModel({.agents = 1}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace ratings::active
