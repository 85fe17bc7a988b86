#include "ratings/pool.h"

#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/results.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::Order;
using ::ratings::testing::StatusIs;
using ::testing::HasSubstr;

double EloOf(const Pool& pool, const std::string& agent) {
  return pool.elo()->Rating(*pool.index().Find(agent));
}
double ScoOf(const Pool& pool, const std::string& agent) {
  return pool.sco()->Rating(*pool.index().Find(agent));
}

// [SCO] §4.1, Eq. (10), replayed online and interleaved: 2: A>B>C, 3: C>A>B.
// A's win rate 7/15 beats C's 6/15, so Elo top-ranks A; SCO top-ranks the Condorcet
// winner C; ML puts probability 1 on C.
TEST(PoolTest, Equation10EloTopRanksASCOTopRanksC) {
  Pool pool = *Pool::Create({});
  for (int cycle = 0; cycle < 500; ++cycle) {
    for (const auto& order : std::vector<std::vector<std::string>>{
             {"A", "B", "C"}, {"C", "A", "B"}, {"A", "B", "C"}, {"C", "A", "B"}, {"C", "A", "B"}}) {
      ASSERT_THAT(pool.Apply(Order(order)), IsOk());
    }
  }
  EXPECT_GT(EloOf(pool, "A"), EloOf(pool, "C"));
  EXPECT_GT(EloOf(pool, "C"), EloOf(pool, "B"));
  EXPECT_GT(ScoOf(pool, "C"), ScoOf(pool, "A"));
  EXPECT_GT(ScoOf(pool, "A"), ScoOf(pool, "B"));
  ASSERT_TRUE(pool.mutable_ml()->Solve()->converged);
  EXPECT_GT(pool.ml()->Lottery()[*pool.index().Find("C")], 0.99);
}

TEST(PoolTest, InvalidResultChangesNothing) {
  Pool pool = *Pool::Create({});
  ASSERT_THAT(pool.Apply(Order({"a", "b"})), IsOk());
  Result bad = Order({"a", "c"});
  bad.standings[1].rank = 0;
  EXPECT_THAT(pool.Apply(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rank 0")));
  EXPECT_EQ(pool.index().size(), 2u);
  EXPECT_EQ(pool.results(), 1u);
  EXPECT_EQ(EloOf(pool, "a"), 1516.0);
}

TEST(PoolTest, AResultTouchesOnlyItsAgents) {
  Pool pool = *Pool::Create({});
  for (int i = 0; i < 20; ++i) {
    ASSERT_THAT(pool.Apply(Order({absl::StrCat("p", i), absl::StrCat("p", i + 1)})), IsOk());
  }
  std::vector<double> elo_before(pool.elo()->ratings().begin(), pool.elo()->ratings().end());
  std::vector<double> sco_before(pool.sco()->ratings().begin(), pool.sco()->ratings().end());
  ASSERT_THAT(pool.Apply(Order({"p3", "p15"})), IsOk());
  for (AgentId a = 0; a < elo_before.size(); ++a) {
    const std::string& name = pool.index().Name(a);
    if (name == "p3" || name == "p15") {
      EXPECT_NE(pool.elo()->Rating(a), elo_before[a]) << name;
      EXPECT_NE(pool.sco()->Rating(a), sco_before[a]) << name;
    } else {
      EXPECT_EQ(pool.elo()->Rating(a), elo_before[a]) << name;
      EXPECT_EQ(pool.sco()->Rating(a), sco_before[a]) << name;
    }
  }
}

// Same input => bit-identical state, for every model (the pool has no randomness).
TEST(PoolTest, DeterministicBitForBit) {
  auto run = [] {
    PoolOptions options;
    options.ml_options.iterations_per_result = 3;
    Pool pool = *Pool::Create(options);
    std::mt19937_64 gen(12345);  // the input stream itself, fixed
    for (int i = 0; i < 400; ++i) {
      std::vector<std::string> agents;
      const int k = 2 + static_cast<int>(gen() % 6);
      while (static_cast<int>(agents.size()) < k) {
        std::string a = absl::StrCat("agent", gen() % 40);
        if (std::find(agents.begin(), agents.end(), a) == agents.end()) agents.push_back(a);
      }
      Result r = Order(agents, 0.5 + static_cast<double>(gen() % 4));
      r.standings.back().rank = r.standings[r.standings.size() - 2].rank;  // a tie
      EXPECT_THAT(pool.Apply(r), IsOk());
    }
    EXPECT_THAT(pool.mutable_ml()->Solve(), IsOk());
    return pool;
  };
  Pool first = run();
  Pool second = run();
  auto same_bits = [](absl::Span<const double> x, absl::Span<const double> y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
  };
  EXPECT_TRUE(same_bits(first.elo()->ratings(), second.elo()->ratings()));
  EXPECT_TRUE(same_bits(first.sco()->ratings(), second.sco()->ratings()));
  EXPECT_TRUE(same_bits(first.ml()->Lottery(), second.ml()->Lottery()));
  EXPECT_TRUE(same_bits(first.ml()->Ratings(), second.ml()->Ratings()));
  EXPECT_EQ(first.ml()->iterations(), second.ml()->iterations());
  // The whole state, not only what the models report.
  const PoolState a = first.ExportState();
  const PoolState b = second.ExportState();
  EXPECT_EQ(a.agents, b.agents);
  EXPECT_EQ(a.results, b.results);
  ASSERT_TRUE(a.ml.has_value() && b.ml.has_value());
  EXPECT_TRUE(same_bits(a.ml->regrets, b.ml->regrets));
  EXPECT_TRUE(same_bits(a.ml->last_regret, b.ml->last_regret));
  EXPECT_TRUE(same_bits(a.ml->average_sum, b.ml->average_sum));
  EXPECT_TRUE(same_bits({&a.ml->average_weight, 1}, {&b.ml->average_weight, 1}));
  EXPECT_EQ(a.ml->averaging_step, b.ml->averaging_step);
  ASSERT_EQ(a.ml->counts.size(), b.ml->counts.size());
  for (size_t i = 0; i < a.ml->counts.size(); ++i) {
    EXPECT_EQ(a.ml->counts[i].a, b.ml->counts[i].a);
    EXPECT_EQ(a.ml->counts[i].b, b.ml->counts[i].b);
    EXPECT_TRUE(same_bits({&a.ml->counts[i].n, 1}, {&b.ml->counts[i].n, 1}));
  }
}

TEST(PoolTest, ModelsCanBeSwitchedOff) {
  PoolOptions options;
  options.sco = false;
  options.ml = false;
  Pool pool = *Pool::Create(options);
  ASSERT_THAT(pool.Apply(Order({"a", "b"})), IsOk());
  EXPECT_NE(pool.elo(), nullptr);
  EXPECT_EQ(pool.sco(), nullptr);
  EXPECT_EQ(pool.ml(), nullptr);
}

TEST(PoolTest, Glicko2IsOffUnlessAskedFor) {
  PoolOptions options;
  EXPECT_FALSE(ModelOn(options, Model::kGlicko2));
  EXPECT_TRUE(ModelOn(options, Model::kElo) && ModelOn(options, Model::kSco) &&
              ModelOn(options, Model::kMl));
  EXPECT_EQ(Pool::Create(options)->glicko2(), nullptr);
  options.glicko2 = true;
  options.glicko2_options.tau = 0;
  EXPECT_THAT(Pool::Create(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tau")));
}

// The pool's glicko2 is ratings::Glicko2 (tested against Glickman's example in
// glicko2_test.cc) fed each result at its event time: the same stream through both, with and
// without times, gives the same bits.
TEST(PoolTest, Glicko2SeesEachResultAtItsEventTime) {
  PoolOptions options;
  options.glicko2 = true;
  Pool pool = *Pool::Create(options);
  Glicko2 alone = *Glicko2::Create({});
  AgentIndex index;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200; ++i) {
    const std::vector<std::string> order = {absl::StrCat("a", rng() % 9),
                                            absl::StrCat("b", rng() % 9)};
    const std::optional<absl::Time> t =
        i % 3 == 0 ? std::nullopt : std::optional(absl::FromUnixSeconds(86'400 * (i / 3)));
    ASSERT_THAT(pool.Apply(Order(order), t), IsOk());
    const std::vector<AgentId> ids = {index.Intern(order[0]), index.Intern(order[1])};
    const std::vector<uint32_t> ranks = {1, 2};
    alone.Resize(index.size());
    alone.Update({ids, ranks, 1.0}, t);
  }
  EXPECT_EQ(pool.glicko2()->state().mu, alone.state().mu);
  EXPECT_EQ(pool.glicko2()->state().phi, alone.state().phi);
  EXPECT_EQ(pool.glicko2()->state().last, alone.state().last);
  EXPECT_EQ(pool.glicko2()->latest(), absl::FromUnixSeconds(86'400 * 66));
}

TEST(PoolTest, MlRefusalLeavesTheOtherModelsRunning) {
  PoolOptions options;
  options.ml_options.max_agents = 3;
  Pool pool = *Pool::Create(options);
  ASSERT_THAT(pool.Apply(Order({"a", "b", "c", "d"})), IsOk());
  EXPECT_TRUE(pool.ml()->refused());
  EXPECT_EQ(EloOf(pool, "a"), 1500.0 + 3 * 32.0 / 3 * 0.5);
}

TEST(PoolTest, CreateRejectsBadModelOptions) {
  PoolOptions options;
  options.sco_options.tau = 0;
  EXPECT_THAT(Pool::Create(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sco: tau")));
  // A model that is off is not validated.
  options.sco = false;
  EXPECT_THAT(Pool::Create(options), IsOk());
}

}  // namespace
}  // namespace ratings

namespace ratings {
namespace {

// ApplyIndexed on names interned when first met gives Apply's state, bit for bit: the same
// random stream (2-7 agents, ties, weights) through both.
TEST(PoolIndexedTest, ApplyIndexedIsApplyWithoutTheStrings) {
  PoolOptions options;
  options.ml_options.iterations_per_result = 2;
  Pool by_name = *Pool::Create(options);
  Pool by_id = *Pool::Create(options);
  std::mt19937_64 gen(99);
  for (int i = 0; i < 300; ++i) {
    std::vector<std::string> agents;
    const int k = 2 + static_cast<int>(gen() % 6);
    while (static_cast<int>(agents.size()) < k) {
      std::string a = absl::StrCat("agent", gen() % 30);
      if (std::find(agents.begin(), agents.end(), a) == agents.end()) agents.push_back(a);
    }
    Result r = testing::Order(agents, 0.5 + static_cast<double>(gen() % 4));
    r.standings.back().rank = r.standings[r.standings.size() - 2].rank;  // a tie
    ASSERT_THAT(by_name.Apply(r), testing::IsOk());
    std::vector<AgentId> ids;
    std::vector<uint32_t> ranks;
    for (const Standing& s : r.standings) {
      ids.push_back(*by_id.InternAgent(s.agent));
      ranks.push_back(s.rank);
    }
    ASSERT_THAT(by_id.ApplyIndexed({ids, ranks, r.weight}), testing::IsOk());
  }
  const PoolState a = by_name.ExportState();
  const PoolState b = by_id.ExportState();
  EXPECT_EQ(a.agents, b.agents);
  EXPECT_EQ(a.results, b.results);
  EXPECT_EQ(a.elo, b.elo);
  EXPECT_EQ(a.sco, b.sco);
  EXPECT_EQ(a.games, b.games);
  ASSERT_TRUE(a.ml.has_value() && b.ml.has_value());
  EXPECT_EQ(a.ml->regrets, b.ml->regrets);
  EXPECT_EQ(a.ml->average_sum, b.ml->average_sum);
}

TEST(PoolIndexedTest, ApplyIndexedChecksWhatIdsLeaveToCheck) {
  Pool pool = *Pool::Create({});
  const AgentId a = *pool.InternAgent("a");
  const AgentId b = *pool.InternAgent("b");
  EXPECT_EQ(*pool.InternAgent("a"), a);
  EXPECT_THAT(pool.InternAgent("").status(),
              testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty agent id")));
  EXPECT_THAT(
      pool.InternAgent(std::string(257, 'x')).status(),
      testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exceeds the limit")));
  const std::vector<uint32_t> ranks = {1, 2};
  const std::vector<AgentId> twice = {a, a};
  EXPECT_THAT(
      pool.ApplyIndexed({twice, ranks, 1.0}),
      testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'a' appears twice")));
  const std::vector<AgentId> unknown = {a, 7};
  EXPECT_THAT(pool.ApplyIndexed({unknown, ranks, 1.0}),
              testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not in the pool")));
  const std::vector<AgentId> pair = {a, b};
  const std::vector<uint32_t> zero = {0, 1};
  EXPECT_THAT(pool.ApplyIndexed({pair, zero, 1.0}),
              testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rank 0")));
  EXPECT_THAT(pool.ApplyIndexed({pair, ranks, 0.0}),
              testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("weight 0")));
  const std::vector<AgentId> one = {a};
  const std::vector<uint32_t> one_rank = {1};
  EXPECT_THAT(pool.ApplyIndexed({one, one_rank, 1.0}),
              testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("1 standings")));
  EXPECT_EQ(pool.results(), 0u);  // nothing applied by the refused ones
  EXPECT_THAT(pool.ApplyIndexed({pair, ranks, 1.0}), testing::IsOk());
  EXPECT_EQ(pool.results(), 1u);
  EXPECT_GT(pool.elo()->Rating(a), pool.elo()->Rating(b));
}

}  // namespace
}  // namespace ratings
