// librdkafka client configuration: --kafka items and properties files.
#include "daemon/kafka/client_config.h"

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace ratingd {
namespace {

using ::ratings::testing::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

TEST(ClientConfigTest, ParsesPropertiesFromFlagsAndFile) {
  const std::string path = ::testing::TempDir() + "/kafka.properties";
  {
    std::ofstream f(path);
    f << "# TLS\nsecurity.protocol = SSL\n\nssl.ca.location=/etc/ca.pem\n";
  }
  auto props = ParseKafkaProperties({"linger.ms=10"}, path);
  ASSERT_THAT(props, IsOk()) << props.status();
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

}  // namespace
}  // namespace ratingd
