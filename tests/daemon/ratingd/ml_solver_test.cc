// MlSolver: directly (submission order, tickets, in_flight) and the ml deltas through the
// pipeline on the fakes. Expected values come from the schedule (a solve every
// ml_solve_every = 10 results: sequence k after 10k results) and from the same solves done
// offline (LivePool::Solve on the same job, OfflineDeltas): a solve depends only on its job.
#include "daemon/ratingd/ml_solver.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/fakes/output_checks.h"
#include "tests/fakes/pipeline_harness.h"
#include "tests/testing/results.h"

namespace ratingd::testing {
namespace {

using ::testing::ElementsAre;

// A job with its own copy of the pool (a job's copy is solved in place).
MlJob Clone(const MlJob& job) {
  MlJob clone = job;
  clone.copy = std::make_shared<ratings::Pool>(*job.copy);
  return clone;
}

TEST(MlSolverTest, SolvesInSubmissionOrderAndCountsWhatIsInFlight) {
  LivePoolConfig config;  // elo, sco and ml
  config.ml_solve_every = 1;
  auto pool = *LivePool::Create("chess", config);
  std::vector<MlJob> jobs;
  const std::vector<std::pair<std::string, std::string>> games = {
      {"a", "b"}, {"b", "c"}, {"c", "a"}};
  for (const auto& [winner, loser] : games) {
    std::vector<v1::RankingDelta> deltas;
    std::optional<MlJob> job;
    ASSERT_TRUE(pool->Apply(ratings::testing::Order({winner, loser}), winner + loser,
                            /*event_time=*/nullptr, -1, &deltas, &job)
                    .ok());
    ASSERT_TRUE(job.has_value());
    jobs.push_back(*std::move(job));
  }
  const MlSolution direct = LivePool::Solve(Clone(jobs[2]));

  Metrics metrics(100);
  MlSolver solver(&metrics);
  EXPECT_EQ(solver.in_flight(), 0u);
  solver.Submit(Clone(jobs[0]), {/*partition=*/0, /*incarnation=*/7, /*emit=*/true});
  solver.Submit(Clone(jobs[1]), {1, 8, false});
  solver.Submit(Clone(jobs[2]), {0, 9, true});
  EXPECT_EQ(solver.in_flight(), 3u);
  solver.WaitIdle();
  EXPECT_EQ(solver.in_flight(), 3u);  // solved, not yet taken
  const std::vector<SolvedMl> solved = solver.TakeSolved();
  EXPECT_EQ(solver.in_flight(), 0u);
  ASSERT_EQ(solved.size(), 3u);
  for (size_t i = 0; i < solved.size(); ++i) {
    EXPECT_EQ(solved[i].solution.job.sequence, i + 1);  // submission order
    EXPECT_EQ(solved[i].solution.job.results, i + 1);
  }
  EXPECT_EQ(solved[1].ticket.partition, 1);
  EXPECT_EQ(solved[1].ticket.incarnation, 8u);
  EXPECT_FALSE(solved[1].ticket.emit);
  EXPECT_EQ(solved[2].ticket.incarnation, 9u);
  EXPECT_EQ(solved[2].solution.lottery, direct.lottery);  // the same job solved directly
  EXPECT_EQ(solved[2].solution.exploitability, direct.exploitability);
  EXPECT_TRUE(solver.TakeSolved().empty());
  EXPECT_TRUE(solver.WaitIdleFor(absl::ZeroDuration()));  // nothing queued
}

// The ml deltas of `broker`, in log order.
std::vector<v1::RankingDelta> MlDeltas(const FakeBroker& broker) {
  std::vector<v1::RankingDelta> out;
  for (v1::RankingDelta& d : broker.Deltas()) {
    if (d.model() == "ml") out.push_back(std::move(d));
  }
  return out;
}

TEST(MlSolverTest, PipelinePublishesMlDeltasOnceTheSolvesFinish) {
  FakeBroker broker(1);
  FakeClock clock;
  Instance a(&broker, TestConfig(TempSnapshotDir(), /*ml=*/true), &clock);  // every 10
  a.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 0, 30);
  ProcessAndCommit(a, clock);  // the commit waits for the solves
  const std::vector<v1::RankingDelta> ml = MlDeltas(broker);
  std::vector<uint64_t> sequences, results;
  for (const v1::RankingDelta& d : ml) {
    sequences.push_back(d.sequence());
    results.push_back(d.results());
  }
  EXPECT_THAT(sequences, ElementsAre(1u, 2u, 3u));
  EXPECT_THAT(results, ElementsAre(10u, 20u, 30u));
  EXPECT_EQ(broker.deltas.size(), 63u);  // 30 x (elo, sco) + 3 ml
  EXPECT_TRUE(SequencesOneToN(broker));
  EXPECT_TRUE(SameDeltas(DeltasByKey(broker), OfflineDeltas(broker, a.config.pool)));

  clock.Advance(a.config.leaderboard_interval);  // past any throttle of an earlier ml board
  ProcessAndCommit(a, clock);
  const v1::Leaderboard board = broker.LastLeaderboards().at("chess/ml");
  EXPECT_EQ(board.sequence(), 3u);
  EXPECT_EQ(board.results(), 30u);
  // The third solve done offline on the pool after the same 30 results.
  auto offline = *LivePool::Create("chess", a.config.pool);
  std::optional<MlJob> last;
  for (const FakeBroker::Input& input : broker.results[0]) {
    auto decoded = std::get<DecodedResult>(
        DecodeResult(*input.key, input.value, a.config.pool.options.limits));
    std::vector<v1::RankingDelta> deltas;
    std::optional<MlJob> job;
    ASSERT_TRUE(offline
                    ->Apply(decoded.record.result, decoded.record.game_id, &decoded.event_time, -1,
                            &deltas, &job)
                    .ok());
    if (job) last = std::move(job);
  }
  ASSERT_TRUE(last.has_value());
  const MlSolution expected = LivePool::Solve(*std::move(last));
  EXPECT_EQ(board.exploitability(), expected.exploitability);
  EXPECT_GE(board.exploitability(), 0);
  EXPECT_EQ(board.ranking_size(), 5);  // agents a0..a4
  double total = 0;
  for (const auto& [agent, p] : board.lottery()) total += p;
  EXPECT_NEAR(total, 1, 1e-9);
  EXPECT_EQ(a.metrics.MlExploitability("chess").Value(), expected.exploitability);
}

TEST(MlSolverTest, ReplayedSolvesAreAcceptedButNotPublished) {
  FakeBroker broker(1);
  FakeClock clock;
  const DaemonConfig config = TestConfig(TempSnapshotDir(), /*ml=*/true);
  Instance a(&broker, config, &clock);
  a.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 0, 30);
  ProcessAndCommit(a, clock);
  ASSERT_EQ(MlDeltas(broker).size(), 3u);
  // A is gone; B replays the 30 results (3 solves accepted silently), then 10 new ones.
  Instance b(&broker, TestConfig(TempSnapshotDir(), /*ml=*/true), &clock);
  b.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 30, 10);
  ProcessAndCommit(b, clock);
  const std::vector<v1::RankingDelta> ml = MlDeltas(broker);
  ASSERT_EQ(ml.size(), 4u);  // the 4th solve only
  EXPECT_EQ(ml[3].sequence(), 4u);
  EXPECT_EQ(ml[3].results(), 40u);
  EXPECT_TRUE(SequencesOneToN(broker));
  // Its changes are against the third solve, which B accepted while replaying.
  EXPECT_TRUE(SameDeltas(DeltasByKey(broker), OfflineDeltas(broker, config.pool)));
}

// The records' timestamps drive the schedule through the pipeline, and a replay after a
// restart schedules the same solves. every = 10, 1 s, 200 results stamped at one instant:
// 10, 20, ..., 100 (catch-up: 10 x 10 >= r), then r = ceil(10 s / 9) with 10 since: 112,
// 125, 139, 155, 173, 193 (next 215).
TEST(MlSolverTest, RecordTimesScheduleTheSolvesAcrossARestart) {
  FakeBroker broker(1);
  FakeClock clock;
  DaemonConfig config = TestConfig(TempSnapshotDir(), /*ml=*/true);
  config.pool.ml_solve_min_interval = absl::Seconds(1);
  Instance a(&broker, config, &clock);
  a.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 0, 120, /*timestamp_ms=*/1'700'000'000'000);
  ProcessAndCommit(a, clock);
  ASSERT_EQ(MlDeltas(broker).size(), 11u);  // up to 112
  Instance b(&broker, config, &clock);      // replays the 120 from the start, then goes on
  b.consumer.Assign({0});
  AppendGames(broker, 0, "chess", 120, 80, 1'700'000'000'000);
  ProcessAndCommit(b, clock);
  std::vector<uint64_t> results;
  for (const v1::RankingDelta& d : MlDeltas(broker)) results.push_back(d.results());
  EXPECT_THAT(results, ElementsAre(10u, 20u, 30u, 40u, 50u, 60u, 70u, 80u, 90u, 100u, 112u, 125u,
                                   139u, 155u, 173u, 193u));
  EXPECT_TRUE(SequencesOneToN(broker));
  EXPECT_TRUE(SameDeltas(DeltasByKey(broker), OfflineDeltas(broker, config.pool)));
}

}  // namespace
}  // namespace ratingd::testing
