// The Rainbow Atari table (tests/data/atari/atari_rainbow_table6.txt; 54 games, 8
// agents) against [VasE] §"Evaluation of Atari agents" and its
// appendix Table 6: Rainbow is the strong Condorcet winner and every rule top-ranks it;
// A3C and Dueling-DDQN tie head to head, which shows as one IML level of two agents.
#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/agent_index.h"
#include "ratings/io/read_results.h"
#include "ratings/voting/batch_tally.h"
#include "ratings/voting/copeland.h"
#include "ratings/voting/exact_lottery.h"
#include "ratings/voting/iterative_lotteries.h"
#include "ratings/voting/kemeny.h"
#include "ratings/voting/ranked_pairs.h"
#include "ratings/voting/schulze.h"
#include "ratings/voting/scoring_rules.h"
#include "ratings/voting/stv.h"
#include "tests/testing/status_matchers.h"

namespace ratings::voting {
namespace {

using ::ratings::testing::IsOk;
using ::testing::DoubleNear;

struct Atari {
  AgentIndex index;
  VoteSet profile;
  std::vector<uint32_t> priority;  // by name, as ratingctl does

  AgentId Id(const std::string& name) const { return *index.Find(name); }
  std::string Name(AgentId id) const { return index.Name(id); }
};

// The table as a profile, or the reader's error (each test ASSERTs it is OK).
absl::StatusOr<Atari> Load() {
  Atari atari;
  const absl::StatusOr<io::ReadOutput> read = io::ReadResultsFile(
      RATINGD_TEST_DATA "/atari/atari_rainbow_table6.txt", io::Format::kScores, {});
  if (!read.ok()) return read.status();
  std::vector<std::vector<AgentId>> ids;
  for (const io::ResultRecord& r : read->records) {
    ids.emplace_back();
    for (const Standing& s : r.result.standings) ids.back().push_back(atari.index.Intern(s.agent));
  }
  atari.profile = VoteSet(atari.index.size());
  for (size_t i = 0; i < read->records.size(); ++i) {
    std::vector<uint32_t> ranks;
    for (const Standing& s : read->records[i].result.standings) ranks.push_back(s.rank);
    atari.profile.Add({ids[i], ranks, read->records[i].result.weight});
  }
  std::vector<AgentId> by_name(atari.index.size());
  for (AgentId a = 0; a < by_name.size(); ++a) by_name[a] = a;
  std::sort(by_name.begin(), by_name.end(),
            [&](AgentId a, AgentId b) { return atari.index.Name(a) < atari.index.Name(b); });
  atari.priority.resize(by_name.size());
  for (uint32_t r = 0; r < by_name.size(); ++r) atari.priority[by_name[r]] = r;
  return atari;
}

TEST(AtariTest, RainbowIsTheStrongCondorcetWinnerAndEveryRuleTopRanksIt) {
  const absl::StatusOr<Atari> loaded = Load();
  ASSERT_THAT(loaded, IsOk()) << loaded.status();
  const Atari& atari = *loaded;
  ASSERT_EQ(atari.profile.size(), 54u);
  ASSERT_EQ(atari.profile.num_agents(), 8u);
  const AgentId rainbow = atari.Id("rainbow");
  const BatchTally tally = BatchTally::FromVotes(atari.profile);
  for (AgentId b = 0; b < 8; ++b) {
    if (b == rainbow) continue;
    EXPECT_GT(tally.Margin(rainbow, b), 0) << atari.Name(b);
  }
  const Eigen::MatrixXd n = *tally.PreferenceMatrix();
  const Eigen::MatrixXd m = *tally.MarginMatrix();
  const Priority p = atari.priority;
  EXPECT_EQ(OrderByScore(ApprovalScores(atari.profile, 3), p)[0], rainbow);
  EXPECT_EQ(OrderByScore(PluralityScores(atari.profile), p)[0], rainbow);
  EXPECT_EQ(OrderByScore(BordaScores(atari.profile), p)[0], rainbow);
  EXPECT_EQ(Stv(atari.profile, {}, p)->order.order[0], rainbow);
  EXPECT_EQ(Stv(atari.profile, {.winners = 3}, p)->order.order[0], rainbow);
  EXPECT_EQ(OrderByScore(CopelandScores(tally), p)[0], rainbow);
  EXPECT_EQ(Kemeny(n, {}, p)->order.order[0], rainbow);
  EXPECT_EQ(RankedPairs(m, p).order[0], rainbow);
  EXPECT_EQ(Schulze(n, p).order.order[0], rainbow);
  EXPECT_NEAR(SolveMaximalLottery(m)->lottery[rainbow], 1.0, 1e-12);
  EXPECT_EQ(IterativeMaximalLotteries(m)->levels[0][0].first, rainbow);
}

// Table 6's Copeland and plurality columns, exactly (no score tie of the data touches
// them); Kemeny's order exactly.
TEST(AtariTest, CopelandPluralityAndKemenyOfTable6) {
  const absl::StatusOr<Atari> loaded = Load();
  ASSERT_THAT(loaded, IsOk()) << loaded.status();
  const Atari& atari = *loaded;
  const BatchTally tally = BatchTally::FromVotes(atari.profile);
  const std::vector<double> copeland = CopelandScores(tally);
  const std::vector<double> plurality = PluralityScores(atari.profile);
  struct Row {
    const char* agent;
    double copeland, plurality;
  };
  for (const Row& r : {Row{"rainbow", 7.0, 19}, Row{"distrib-dqn", 6.0, 8},
                       Row{"prior-ddqn", 5.0, 6}, Row{"dueling-ddqn", 3.5, 5}, Row{"a3c", 3.5, 12},
                       Row{"ddqn", 2.0, 2}, Row{"noisy-dqn", 1.0, 2}, Row{"dqn", 0.0, 0}}) {
    EXPECT_EQ(copeland[atari.Id(r.agent)], r.copeland) << r.agent;
    EXPECT_EQ(plurality[atari.Id(r.agent)], r.plurality) << r.agent;
  }
  const absl::StatusOr<KemenyOutcome> kemeny =
      Kemeny(*tally.PreferenceMatrix(), {}, atari.priority);
  ASSERT_THAT(kemeny, IsOk());
  std::vector<std::string> order;
  for (AgentId a : kemeny->order.order) order.push_back(atari.Name(a));
  EXPECT_THAT(order, ::testing::ElementsAre("rainbow", "distrib-dqn", "prior-ddqn", "a3c",
                                            "dueling-ddqn", "ddqn", "noisy-dqn", "dqn"));
  // Rainbow is in no tie of the data, so its Kemeny score (its N row) is Table 6's 295.
  EXPECT_EQ(kemeny->order.score[atari.Id("rainbow")], 295);
}

// Table 6's IML column is rainbow 7.00, distrib 6.00, prior 5.00, a3c 3.98, dueling 3.02,
// ddqn 3.00, noisy 2.00, dqn 1.00: seven levels, with A3C and Dueling-DDQN sharing the
// fourth because delta(A3C, Dueling-DDQN) = 0. The paper's 0.98 / 0.02 split is one
// arbitrary vertex of the maximal lotteries of that sub-game (any split is maximal);
// the maximum-entropy lottery (docs/MODELS.md §6) gives each 1/2, so both score 3.5.
TEST(AtariTest, IterativeMaximalLotteriesPutTheTiedPairOnOneLevelWithEqualProbability) {
  const absl::StatusOr<Atari> loaded = Load();
  ASSERT_THAT(loaded, IsOk()) << loaded.status();
  const Atari& atari = *loaded;
  const BatchTally tally = BatchTally::FromVotes(atari.profile);
  EXPECT_EQ(tally.Margin(atari.Id("a3c"), atari.Id("dueling-ddqn")), 0);
  const absl::StatusOr<ImlOutcome> iml = IterativeMaximalLotteries(*tally.MarginMatrix());
  ASSERT_THAT(iml, IsOk()) << iml.status();
  ASSERT_EQ(iml->levels.size(), 7u);
  ASSERT_EQ(iml->levels[3].size(), 2u);
  EXPECT_NEAR(iml->levels[3][0].second, 0.5, 1e-9);
  EXPECT_NEAR(iml->levels[3][1].second, 0.5, 1e-9);
  // Bit-identical, so the report's tie-break (agent id) orders them, not rounding noise.
  EXPECT_EQ(iml->levels[3][0].second, iml->levels[3][1].second);
  struct Row {
    const char* agent;
    double score;
  };
  for (const Row& r :
       {Row{"rainbow", 7}, Row{"distrib-dqn", 6}, Row{"prior-ddqn", 5}, Row{"a3c", 3.5},
        Row{"dueling-ddqn", 3.5}, Row{"ddqn", 3}, Row{"noisy-dqn", 2}, Row{"dqn", 1}}) {
    EXPECT_THAT(iml->score[atari.Id(r.agent)], DoubleNear(r.score, 1e-9)) << r.agent;
  }
}

}  // namespace
}  // namespace ratings::voting
