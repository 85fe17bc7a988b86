// Unit tests of the daemon's small helpers: command-line handling, Kafka properties, the
// leaderboard URL, the rank-disagreement metric.
#include <algorithm>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "daemon/command_line.h"
#include "daemon/http_api.h"
#include "daemon/kafka_util.h"
#include "daemon/metrics.h"
#include "daemon/rank_disagreement.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ratingd {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

TEST(CommandLineTest, TakesRepeatedFlagsAndNormalisesDashes) {
  std::vector<std::string> args = {
      "prog",    "--param", "elo.k=1", "--results-topic=t", "--param=sco.tau=2",
      "--kafka", "a=b",     "--",      "--param",           "x"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  NormalizeFlagDashes(argc, argv.data());
  EXPECT_EQ(std::string(argv[3]), "--results_topic=t");
  EXPECT_THAT(TakeRepeatedFlag(argc, argv.data(), "param"), ElementsAre("elo.k=1", "sco.tau=2"));
  EXPECT_THAT(TakeRepeatedFlag(argc, argv.data(), "kafka"), ElementsAre("a=b"));
  ASSERT_EQ(argc, 5);  // prog, --results_topic=t, --, --param, x (after "--": untouched)
  EXPECT_EQ(std::string(argv[2]), "--");
  EXPECT_EQ(std::string(argv[3]), "--param");
  EXPECT_EQ(argv[5], nullptr);
}

TEST(KafkaUtilTest, ParsesPropertiesFromFlagsAndFile) {
  const std::string path = ::testing::TempDir() + "/kafka.properties";
  {
    std::ofstream f(path);
    f << "# TLS\nsecurity.protocol = SSL\n\nssl.ca.location=/etc/ca.pem\n";
  }
  auto props = ParseKafkaProperties({"linger.ms=10"}, path);
  ASSERT_TRUE(props.ok()) << props.status();
  EXPECT_THAT(*props, ElementsAre(Pair("security.protocol", "SSL"),
                                  Pair("ssl.ca.location", "/etc/ca.pem"), Pair("linger.ms", "10")));
  auto bad = ParseKafkaProperties({"novalue"}, "");
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("'novalue' is not key=value"));
  {
    std::ofstream f(path);
    f << "a=1\n=2\n";
  }
  bad = ParseKafkaProperties({}, path);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("kafka.properties:2:"));
  auto conf = MakeConf({{"no.such.property", "1"}});
  EXPECT_THAT(std::string(conf.status().message()), HasSubstr("no.such.property=1"));
}

TEST(KafkaUtilTest, DeadLetterValueFitsBesideKeyAndHeaders) {
  std::unique_ptr<RdKafka::Headers> headers(RdKafka::Headers::create());
  headers->add("x-ratingd-reason", "unparseable");  // 16 + 11 bytes
  // Hand count: framing 64 + key 4 + the truncation header's 19 + 20 + this header's
  // 8 + 16 + 11 = 142 bytes of overhead.
  EXPECT_EQ(DeadLetterValueBytes(10, "pool", *headers, 1000), 10u);    // fits whole
  EXPECT_EQ(DeadLetterValueBytes(858, "pool", *headers, 1000), 858u);  // exactly
  EXPECT_EQ(DeadLetterValueBytes(859, "pool", *headers, 1000), 858u);  // cut by 1
  EXPECT_EQ(DeadLetterValueBytes(1 << 20, "pool", *headers, 1000), 858u);
  EXPECT_EQ(DeadLetterValueBytes(10, "pool", *headers, 142), 0u);  // no room
  EXPECT_EQ(DeadLetterValueBytes(10, std::string(2000, 'k'), *headers, 1000), 0u);
}

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

TEST(HttpApiTest, ParsesLeaderboardRequests) {
  auto q = ParseLeaderboardRequest("/v1/pools/chess/blitz/leaderboard", "sco", "10");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->pool, "chess/blitz");
  EXPECT_EQ(q->model, "sco");
  EXPECT_EQ(q->limit, 10u);
  EXPECT_TRUE(
      absl::IsNotFound(ParseLeaderboardRequest("/v1/pools//leaderboard", "elo", "").status()));
  EXPECT_TRUE(absl::IsNotFound(ParseLeaderboardRequest("/v2/x", "elo", "").status()));
  EXPECT_THAT(
      std::string(
          ParseLeaderboardRequest("/v1/pools/p/leaderboard", "glicko", "").status().message()),
      HasSubstr("model must be elo, sco or ml"));
  EXPECT_THAT(
      std::string(
          ParseLeaderboardRequest("/v1/pools/p/leaderboard", "ml", "-1").status().message()),
      HasSubstr("limit"));
}

// Independent check: brute force over all pairs.
TEST(RankDisagreementTest, EqualsBruteForcePairCount) {
  EXPECT_EQ(NormalizedKendallTau({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_EQ(NormalizedKendallTau({1, 2, 3}, {3, 2, 1}), 1.0);
  EXPECT_EQ(NormalizedKendallTau({1, 2, 3, 0}, {2, 1, 3, 4}), 1.0 / 3);  // agent 4 unranked in a
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 50; ++trial) {
    const size_t n = 2 + rng() % 60;
    std::vector<uint32_t> a(n), b(n);
    for (size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<uint32_t>(i + 1);
    std::shuffle(a.begin(), a.end(), rng);
    std::shuffle(b.begin(), b.end(), rng);
    double discordant = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) discordant += (a[i] < a[j]) != (b[i] < b[j]);
    }
    EXPECT_DOUBLE_EQ(NormalizedKendallTau(a, b), discordant / (n * (n - 1) / 2.0));
  }
}

}  // namespace
}  // namespace ratingd
