// The king-of-the-hill game ([RE] §3.1) and its headline property ([RE] §3.3, §4.2, Fig. 3):
// adding copies of prompts chosen against one model leaves the equilibrium ratings of the
// models unchanged under affinity-entropy selection, while a Bradley–Terry (Elo) fit on the
// same judgements moves that model down and the Shannon ablation moves too. Expected values:
// the construction's definitions by hand, and the un-copied game's own ratings (invariance is
// a comparison of two solves).
#include "ratings/games/king_of_the_hill.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ratings/batch/bradley_terry.h"
#include "ratings/games/affinity_entropy.h"
#include "ratings/games/annealed_qre.h"
#include "ratings/games/max_entropy_cce.h"
#include "ratings/games/skill_game.h"

namespace ratings::games {
namespace {

TEST(KingOfTheHillTest, AggregatesBothOrdersAndBuildsThePayoffs) {
  // Prompt x: (a, b) judged +1 and, in the other order, (b, a) judged +0.5: mean for (a, b)
  // is (1 - 0.5) / 2 = 0.25. Pair (a, c) never judged on x: 0.
  const std::vector<Judgement> judgements = {
      {"x", "a", "b", 1.0}, {"x", "b", "a", 0.5}, {"y", "c", "a", -0.5}};
  const absl::StatusOr<Preferences> prefs = AggregatePreferences(judgements);
  ASSERT_TRUE(prefs.ok()) << prefs.status();
  EXPECT_EQ(prefs->prompts, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(prefs->models, (std::vector<std::string>{"a", "b", "c"}));
  const PreferenceTensor& t = prefs->tensor;
  EXPECT_DOUBLE_EQ(t.at(0, 0, 1), 0.25);
  EXPECT_DOUBLE_EQ(t.at(0, 1, 0), -0.25);
  EXPECT_DOUBLE_EQ(t.at(0, 0, 2), 0.0);
  EXPECT_DOUBLE_EQ(t.at(1, 2, 0), -0.5);
  EXPECT_DOUBLE_EQ(t.at(1, 0, 2), 0.5);
  const NormalFormGame game = KingOfTheHill(t);
  EXPECT_EQ(game.actions, (std::vector<size_t>{2, 3, 3}));
  const size_t at = (0 * 3 + 1) * 3 + 0;  // prompt x, king b, rebel a
  EXPECT_DOUBLE_EQ(game.payoffs[kKingPlayer][at], -0.25);
  EXPECT_DOUBLE_EQ(game.payoffs[kRebelPlayer][at], 0.25);
  EXPECT_DOUBLE_EQ(game.payoffs[kPromptPlayer][at], 0.25);
  const size_t same = (1 * 3 + 2) * 3 + 2;  // prompt y, king c, rebel c
  EXPECT_DOUBLE_EQ(game.payoffs[kRebelPlayer][same], -1.0);
  EXPECT_DOUBLE_EQ(game.payoffs[kKingPlayer][same], 0.0);
}

TEST(KingOfTheHillTest, RejectsBadJudgements) {
  EXPECT_FALSE(AggregatePreferences(std::vector<Judgement>{{"x", "a", "a", 0.0}}).ok());
  EXPECT_FALSE(AggregatePreferences(std::vector<Judgement>{{"x", "a", "b", 1.5}}).ok());
  EXPECT_FALSE(AggregatePreferences(std::vector<Judgement>{{"x", "a", "b", NAN}}).ok());
}

struct Rated {
  std::vector<Eigen::VectorXd> ne;
  std::vector<Eigen::VectorXd> cce;
  std::vector<std::string> prompts;
};

Rated Rate(const SkillGame& skill, Selection selection) {
  const absl::StatusOr<Preferences> prefs = AggregatePreferences(skill.judgements);
  EXPECT_TRUE(prefs.ok()) << prefs.status();
  const NormalFormGame game = KingOfTheHill(prefs->tensor);
  const Profile targets = Targets(game, {.selection = selection});
  const NashResult ne = SolveAnnealedQre(game, targets);
  const CceResult cce = SolveMaxEntropyCce(game, targets);
  EXPECT_TRUE(ne.converged) << ne.exploitability;
  EXPECT_TRUE(cce.converged) << cce.exploitability;
  return {ne.ratings, cce.ratings, prefs->prompts};
}

// The models (0 = best) by rating; ratings within 1e-4 of their group's best share its
// place and are ordered by index (the tie rule of `rate --method gt-*`, [RE] F.5): an
// ε-equilibrium's ratings are accurate to about ε, so closer ratings are ordered by noise.
std::vector<size_t> Order(const Eigen::VectorXd& ratings) {
  std::vector<size_t> order(static_cast<size_t>(ratings.size()));
  std::iota(order.begin(), order.end(), 0);
  auto rating = [&](size_t a) { return ratings[static_cast<Eigen::Index>(a)]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rating(a) > rating(b); });
  for (size_t start = 0; start < order.size();) {
    size_t end = start + 1;
    while (end < order.size() && rating(order[start]) - rating(order[end]) <= 1e-4) ++end;
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(start),
              order.begin() + static_cast<std::ptrdiff_t>(end));
    start = end;
  }
  return order;
}

// The Bradley–Terry rank (0 = best) of `model` from the judgements' signs.
size_t EloRank(const SkillGame& skill, size_t models, const std::string& model) {
  std::vector<PairCount> pairs;
  auto id = [](const std::string& m) { return static_cast<AgentId>(std::stoi(m.substr(1)) - 1); };
  for (const Judgement& j : skill.judgements) {
    AgentId a = id(j.model_a);
    AgentId b = id(j.model_b);
    double ab = j.value > 0 ? 1 : 0;
    double ba = j.value < 0 ? 1 : 0;
    if (a > b) std::swap(a, b), std::swap(ab, ba);
    pairs.push_back({a, b, ab, ba});
  }
  const absl::StatusOr<BradleyTerryFit> fit = FitBradleyTerry(models, pairs, {});
  EXPECT_TRUE(fit.ok());
  const size_t target = id(model);
  size_t rank = 0;
  for (size_t m = 0; m < models; ++m) rank += fit->ratings[m] > fit->ratings[target];
  return rank;
}

TEST(KingOfTheHillTest, AdversarialPromptCopiesMoveEloButNotTheEquilibria) {
  SkillGameOptions options = {.prompts = 40, .models = 6, .skills = 3, .seed = 7};
  const absl::StatusOr<SkillGame> base = GenerateSkillGame(options);
  options.copies = 40;
  const absl::StatusOr<SkillGame> copied = GenerateSkillGame(options);
  ASSERT_TRUE(base.ok() && copied.ok());
  const Rated before = Rate(*base, Selection::kAffinity);
  const Rated after = Rate(*copied, Selection::kAffinity);
  for (size_t player : {kKingPlayer, kRebelPlayer}) {
    for (const auto& [b, a] : {std::pair{before.ne, after.ne}, std::pair{before.cce, after.cce}}) {
      EXPECT_LE((b[player] - a[player]).cwiseAbs().maxCoeff(), 1e-3) << "player " << player;
      EXPECT_EQ(Order(b[player]), Order(a[player])) << "player " << player;
    }
  }
  // Each copy is rated as its original.
  for (size_t p = 40; p < after.prompts.size(); ++p) {
    const std::string& name = after.prompts[p];
    const size_t original = static_cast<size_t>(std::stoi(name.substr(1, name.find('-') - 1))) - 1;
    EXPECT_NEAR(after.ne[kPromptPlayer][p], after.ne[kPromptPlayer][original], 1e-9) << name;
    EXPECT_NEAR(after.cce[kPromptPlayer][p], after.cce[kPromptPlayer][original], 1e-9) << name;
  }
  // Elo moves the targeted model down; the Shannon ablation moves the equilibria.
  EXPECT_GT(EloRank(*copied, 6, copied->target), EloRank(*base, 6, copied->target));
  const Rated shannon_before = Rate(*base, Selection::kShannon);
  const Rated shannon_after = Rate(*copied, Selection::kShannon);
  EXPECT_GT((shannon_before.ne[kKingPlayer] - shannon_after.ne[kKingPlayer]).cwiseAbs().maxCoeff(),
            1e-2);
  EXPECT_GT(
      (shannon_before.cce[kKingPlayer] - shannon_after.cce[kKingPlayer]).cwiseAbs().maxCoeff(),
      1e-2);
}

// Sampled battles: the frequencies of the closed form (a tie with probability `ties`, else a
// win for the first-presented model with probability (1 + u)/2), orders alternating, and
// copies that repeat their original's battles.
TEST(SkillGameTest, SampledBattlesFollowThePreferenceAndCopiesRepeatThem) {
  const SkillGameOptions options = {
      .prompts = 1, .models = 2, .copies = 2, .sampled = 40000, .ties = 0.3, .seed = 3};
  const absl::StatusOr<SkillGame> game = GenerateSkillGame(options);
  ASSERT_TRUE(game.ok()) << game.status();
  ASSERT_EQ(game->judgements.size(), 3u * 40000u);
  const double u = game->prompt_skills[0].dot(game->model_skills[0] - game->model_skills[1]);
  double ties = 0, m1_wins = 0;
  for (size_t k = 0; k < 40000; ++k) {
    const Judgement& j = game->judgements[k];
    EXPECT_EQ(j.model_a, k % 2 == 0 ? "m1" : "m2") << k;
    ASSERT_TRUE(j.value == 0 || j.value == 1 || j.value == -1) << j.value;
    ties += j.value == 0;
    m1_wins += j.value == (j.model_a == "m1" ? 1 : -1);
    for (size_t c = 1; c <= 2; ++c) {  // the copies, in the same order
      const Judgement& copy = game->judgements[c * 40000 + k];
      EXPECT_EQ(copy.prompt, "q1-copy" + std::to_string(c));
      EXPECT_EQ(copy.model_a, j.model_a);
      EXPECT_EQ(copy.value, j.value);
    }
  }
  // Binomial frequencies within 5 standard deviations (sd <= 0.0025 for n = 40,000).
  EXPECT_NEAR(ties / 40000, 0.3, 0.0125);
  EXPECT_NEAR(m1_wins / 40000, 0.7 * (1 + u) / 2, 0.0125);
}

TEST(SkillGameTest, SampledBattlesRefuseNoiseAndBadTies) {
  EXPECT_FALSE(GenerateSkillGame({.copies = 1, .noise = 0.1, .sampled = 2}).ok());
  EXPECT_FALSE(GenerateSkillGame({.sampled = 2, .ties = 1.5}).ok());
  EXPECT_TRUE(GenerateSkillGame({.sampled = 2, .ties = 1}).ok());
}

}  // namespace
}  // namespace ratings::games
