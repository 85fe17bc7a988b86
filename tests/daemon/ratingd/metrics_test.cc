// ratingd's Prometheus metrics: gauges of partitions and pools handed to another instance
// are removed.
#include "daemon/ratingd/metrics.h"

#include <algorithm>
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

}  // namespace
}  // namespace ratingd
