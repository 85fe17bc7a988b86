// ratingd's Prometheus metrics: gauges of partitions and pools handed to another instance
// are removed.
#include "daemon/ratingd/metrics.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The series of `name` in the registry's exposition, one string of labels each.
std::vector<std::string> Series(const Metrics& metrics, const std::string& name) {
  std::vector<std::string> out;
  for (const prometheus::MetricFamily& family : metrics.registry()->Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& m : family.metric) {
      std::string labels;
      for (const prometheus::ClientMetric::Label& l : m.label) {
        labels += l.name + "=" + l.value + ";";
      }
      out.push_back(labels);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(MetricsTest, ForgetsTheGaugesOfPartitionsAndPoolsHandedOver) {
  Metrics metrics(/*max_pools=*/2);
  metrics.ConsumerLag("results", 0).Set(5);
  metrics.ConsumerLag("results", 1).Set(7);
  metrics.SnapshotSize(0).Set(100);
  metrics.Consumed("results", 0).Increment();
  for (const char* pool : {"a", "b", "c"}) metrics.PoolAgents(pool).Set(3);  // c: "_other"
  metrics.RankDisagreement("a", "elo_sco").Set(0.5);
  metrics.ForgetPartition("results", 0);
  metrics.ForgetPool("a");
  metrics.ForgetPool("c");        // shares "_other" with pools still held: kept
  metrics.ForgetPool("unknown");  // never seen: nothing to do
  EXPECT_THAT(Series(metrics, "ratingd_consumer_lag_records"),
              ElementsAre("partition=1;topic=results;"));
  EXPECT_THAT(Series(metrics, "ratingd_snapshot_size_bytes"), IsEmpty());
  EXPECT_THAT(Series(metrics, "ratingd_records_consumed_total"),  // a counter: kept
              ElementsAre("partition=0;topic=results;"));
  EXPECT_THAT(Series(metrics, "ratingd_pool_agents"), ElementsAre("pool=_other;", "pool=b;"));
  EXPECT_THAT(Series(metrics, "ratingd_rank_disagreement_ratio"), IsEmpty());
  // A pool coming back gets its own label again.
  metrics.PoolAgents("a").Set(4);
  EXPECT_THAT(Series(metrics, "ratingd_pool_agents"),
              ElementsAre("pool=_other;", "pool=a;", "pool=b;"));
}

// The value of `name`'s series with exactly these labels ("k=v;" each, sorted by key).
std::optional<double> Value(const Metrics& metrics, const std::string& name,
                            const std::string& labels) {
  for (const prometheus::MetricFamily& family : metrics.registry()->Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& m : family.metric) {
      std::string got;
      for (const prometheus::ClientMetric::Label& l : m.label) got += l.name + "=" + l.value + ";";
      if (got == labels) return m.gauge.value;
    }
  }
  return std::nullopt;
}

TEST(MetricsTest, TopAgentsReplaceTheirPredecessorsAndGoWithThePool) {
  Metrics metrics(/*max_pools=*/1);
  metrics.SetTopAgents("chess", "elo",
                       {{"a", 1600, 1550, 1650}, {"b", 1500, 1450, 1540}, {"c", 1400, {}, {}}});
  EXPECT_EQ(Value(metrics, "ratingd_top_agent_rating", "agent=a;model=elo;pool=chess;"), 1600);
  EXPECT_EQ(Value(metrics, "ratingd_top_agent_ci_low", "agent=b;model=elo;pool=chess;"), 1450);
  EXPECT_EQ(Value(metrics, "ratingd_top_agent_ci_high", "agent=a;model=elo;pool=chess;"), 1650);
  EXPECT_THAT(Series(metrics, "ratingd_top_agent_ci_low"),  // c has no interval
              ElementsAre("agent=a;model=elo;pool=chess;", "agent=b;model=elo;pool=chess;"));
  // b dropped out of the top: its series go; d is new.
  metrics.SetTopAgents("chess", "elo", {{"d", 1700, 1650, 1750}, {"a", 1600, 1560, 1640}});
  EXPECT_THAT(Series(metrics, "ratingd_top_agent_rating"),
              ElementsAre("agent=a;model=elo;pool=chess;", "agent=d;model=elo;pool=chess;"));
  EXPECT_EQ(Value(metrics, "ratingd_top_agent_ci_low", "agent=a;model=elo;pool=chess;"), 1560);
  metrics.SetTopAgents("go", "elo", {{"x", 1, 0, 2}});  // beyond max_pools: no series
  EXPECT_EQ(Series(metrics, "ratingd_top_agent_rating").size(), 2u);
  metrics.ForgetPool("chess");
  EXPECT_THAT(Series(metrics, "ratingd_top_agent_rating"), IsEmpty());
  EXPECT_THAT(Series(metrics, "ratingd_top_agent_ci_high"), IsEmpty());
}

}  // namespace
}  // namespace ratingd
