// Pool::ExportState / FromState: a pool restored from its state continues exactly as the
// original (snapshots, docs/ARCHITECTURE.md §5). The independent check is the uninterrupted
// pool itself.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ratings/pool.h"
#include "tests/testing/status_matchers.h"

namespace ratings {
namespace {

using ::ratings::testing::IsOk;
using ::ratings::testing::StatusIs;
using ::testing::DoubleNear;
using ::testing::HasSubstr;

Result RandomResult(std::mt19937_64& rng, int agents) {
  Result r;
  const int k = 2 + static_cast<int>(rng() % 4);
  std::vector<int> chosen;
  while (static_cast<int>(chosen.size()) < k) {
    const int a = static_cast<int>(rng() % agents);
    if (std::find(chosen.begin(), chosen.end(), a) == chosen.end()) chosen.push_back(a);
  }
  for (int i = 0; i < k; ++i) {
    r.standings.push_back({absl::StrCat("p", chosen[i]), static_cast<uint32_t>(1 + rng() % 3), {}});
  }
  r.weight = 0.5 + static_cast<double>(rng() % 3);
  return r;
}

void ExpectSameState(const PoolState& a, const PoolState& b) {
  EXPECT_EQ(a.agents, b.agents);
  EXPECT_EQ(a.results, b.results);
  EXPECT_EQ(a.elo, b.elo);  // bit-identical
  EXPECT_EQ(a.sco, b.sco);
  EXPECT_EQ(a.games, b.games);
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.result_counts, b.result_counts);
  ASSERT_EQ(a.glicko2.has_value(), b.glicko2.has_value());
  if (a.glicko2) {
    EXPECT_EQ(a.glicko2->mu, b.glicko2->mu);
    EXPECT_EQ(a.glicko2->phi, b.glicko2->phi);
    EXPECT_EQ(a.glicko2->sigma, b.glicko2->sigma);
    EXPECT_EQ(a.glicko2->last, b.glicko2->last);
    EXPECT_EQ(a.glicko2->latest, b.glicko2->latest);
  }
  ASSERT_EQ(a.ml.has_value(), b.ml.has_value());
  if (!a.ml) return;
  EXPECT_EQ(a.ml->size, b.ml->size);
  ASSERT_EQ(a.ml->counts.size(), b.ml->counts.size());
  for (size_t i = 0; i < a.ml->counts.size(); ++i) {
    EXPECT_EQ(a.ml->counts[i].a, b.ml->counts[i].a);
    EXPECT_EQ(a.ml->counts[i].b, b.ml->counts[i].b);
    EXPECT_EQ(a.ml->counts[i].n, b.ml->counts[i].n);
  }
  EXPECT_EQ(a.ml->regrets, b.ml->regrets);
  EXPECT_EQ(a.ml->last_regret, b.ml->last_regret);
  EXPECT_EQ(a.ml->average_sum, b.ml->average_sum);
  EXPECT_EQ(a.ml->average_weight, b.ml->average_weight);
  EXPECT_EQ(a.ml->iterations, b.ml->iterations);
  EXPECT_EQ(a.ml->averaging_step, b.ml->averaging_step);
}

// Cut a stream of results at several points, restore from the state there, continue, and
// compare with the uninterrupted pool; also with online regret-matching iterations on.
TEST(PoolStateTest, RestoredPoolContinuesBitIdentically) {
  for (int iterations : {0, 3}) {
    PoolOptions options;
    options.ml_options.iterations_per_result = iterations;
    std::mt19937_64 rng(5);
    std::vector<Result> results;
    for (int i = 0; i < 400; ++i) results.push_back(RandomResult(rng, 25));
    Pool whole = *Pool::Create(options);
    for (const Result& r : results) ASSERT_THAT(whole.Apply(r), IsOk());
    for (size_t cut : {size_t{0}, size_t{1}, size_t{137}, size_t{399}}) {
      Pool first = *Pool::Create(options);
      for (size_t i = 0; i < cut; ++i) ASSERT_THAT(first.Apply(results[i]), IsOk());
      absl::StatusOr<Pool> second = Pool::FromState(options, first.ExportState());
      ASSERT_THAT(second, IsOk()) << second.status();
      for (size_t i = cut; i < results.size(); ++i) ASSERT_THAT(second->Apply(results[i]), IsOk());
      Pool reference = *Pool::Create(options);
      for (const Result& r : results) ASSERT_THAT(reference.Apply(r), IsOk());
      SCOPED_TRACE(absl::StrCat("iterations ", iterations, " cut ", cut));
      ExpectSameState(second->ExportState(), reference.ExportState());
    }
  }
}

// The same with glicko2 on and event times (every fifth result has none, and some go back in
// time): the deviations grown after the cut depend on the restored last and latest times.
TEST(PoolStateTest, RestoredGlicko2PoolContinuesBitIdentically) {
  PoolOptions options;
  options.glicko2 = true;
  options.glicko2_options.period = absl::Hours(1);
  std::mt19937_64 rng(9);
  std::vector<Result> results;
  std::vector<std::optional<absl::Time>> times;
  for (int i = 0; i < 300; ++i) {
    results.push_back(RandomResult(rng, 20));
    const absl::Time t = absl::FromUnixSeconds(1'700'000'000 + 600 * i - 3000 * (i % 7 == 3));
    times.push_back(i % 5 == 4 ? std::nullopt : std::optional(t));
  }
  Pool reference = *Pool::Create(options);
  for (size_t i = 0; i < results.size(); ++i) {
    ASSERT_THAT(reference.Apply(results[i], times[i]), IsOk());
  }
  for (size_t cut : {size_t{0}, size_t{4}, size_t{150}}) {
    Pool first = *Pool::Create(options);
    for (size_t i = 0; i < cut; ++i) ASSERT_THAT(first.Apply(results[i], times[i]), IsOk());
    absl::StatusOr<Pool> second = Pool::FromState(options, first.ExportState());
    ASSERT_THAT(second, IsOk()) << second.status();
    for (size_t i = cut; i < results.size(); ++i) {
      ASSERT_THAT(second->Apply(results[i], times[i]), IsOk());
    }
    SCOPED_TRACE(absl::StrCat("cut ", cut));
    ExpectSameState(second->ExportState(), reference.ExportState());
  }
  PoolState state = reference.ExportState();
  PoolOptions off = options;
  off.glicko2 = false;
  EXPECT_THAT(
      Pool::FromState(off, state).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("glicko2 model but it is off")));
  state.glicko2->mu.pop_back();
  EXPECT_THAT(
      Pool::FromState(options, state).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("glicko2: 19 ratings for 20")));
  state.glicko2.reset();
  EXPECT_THAT(Pool::FromState(options, state).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has no glicko2 model")));
}

// A state written by hand (no generator: the pool has none) restores and continues.
// Hand calculation (classic Elo, K = 32): b (1484) beats a (1516): E(b, a) =
// 1 / (1 + 10^(32/400)) = 0.454078, so b gains 32 (1 - 0.454078) = 17.469502.
TEST(PoolStateTest, HandWrittenStateRestores) {
  PoolOptions options;
  options.sco = false;
  options.ml = false;
  PoolState state;
  state.agents = {"a", "b"};
  state.results = 1;
  state.elo = {1516, 1484};
  absl::StatusOr<Pool> pool = Pool::FromState(options, state);
  ASSERT_THAT(pool, IsOk()) << pool.status();
  EXPECT_EQ(pool->results(), 1u);
  Result r;
  r.standings = {{"b", 1, {}}, {"a", 2, {}}};
  ASSERT_THAT(pool->Apply(r), IsOk());
  EXPECT_EQ(pool->results(), 2u);
  EXPECT_THAT(pool->elo()->Rating(*pool->index().Find("b")), DoubleNear(1501.4695015289756, 1e-9));
  EXPECT_THAT(pool->elo()->Rating(*pool->index().Find("a")), DoubleNear(1498.5304984710244, 1e-9));
}

TEST(PoolStateTest, RejectsStateThatDoesNotFitTheOptions) {
  Pool pool = *Pool::Create({});
  Result r;
  r.standings = {{"a", 1, {}}, {"b", 2, {}}};
  ASSERT_THAT(pool.Apply(r), IsOk());
  PoolState state = pool.ExportState();

  PoolState twice = state;
  twice.agents[1] = "a";
  EXPECT_THAT(Pool::FromState({}, twice).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'a' appears twice")));
  PoolState short_elo = state;
  short_elo.elo.pop_back();
  EXPECT_THAT(Pool::FromState({}, short_elo).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("elo: 1 ratings for 2")));
  PoolState out_of_bounds = state;
  out_of_bounds.sco[0] = 101;
  EXPECT_THAT(Pool::FromState({}, out_of_bounds).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("outside [0, 100]")));
  PoolOptions no_ml;
  no_ml.ml = false;
  EXPECT_THAT(Pool::FromState(no_ml, state).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ml is off")));
  PoolState bad_count = state;
  bad_count.ml->counts.push_back({0, 7, 1.0});
  EXPECT_THAT(Pool::FromState({}, bad_count).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("N(0, 7)")));
}

}  // namespace
}  // namespace ratings
