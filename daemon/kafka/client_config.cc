#include "daemon/kafka/client_config.h"

#include <algorithm>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "librdkafka/rdkafka.h"

namespace ratingd {
namespace {

absl::StatusOr<std::pair<std::string, std::string>> SplitAssignment(absl::string_view item) {
  const size_t eq = item.find('=');
  if (eq == absl::string_view::npos || eq == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", item, "' is not key=value (for example security.protocol=SSL)"));
  }
  return std::pair(std::string(absl::StripAsciiWhitespace(item.substr(0, eq))),
                   std::string(absl::StripAsciiWhitespace(item.substr(eq + 1))));
}

}  // namespace

absl::StatusOr<KafkaProperties> ParseKafkaProperties(const std::vector<std::string>& items,
                                                     const std::string& file) {
  KafkaProperties out;
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) return absl::InvalidArgumentError(absl::StrCat(file, ": cannot open"));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const absl::string_view text = absl::StripAsciiWhitespace(line);
      if (text.empty() || text[0] == '#') continue;
      auto kv = SplitAssignment(text);
      if (!kv.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(file, ":", n, ": ", kv.status().message()));
      }
      out.push_back(*std::move(kv));
    }
  }
  for (const std::string& item : items) {
    auto kv = SplitAssignment(item);
    if (!kv.ok())
      return absl::InvalidArgumentError(absl::StrCat("--kafka: ", kv.status().message()));
    out.push_back(*std::move(kv));
  }
  return out;
}

absl::StatusOr<std::unique_ptr<RdKafka::Conf>> MakeConf(const KafkaProperties& properties) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string error;
  for (const auto& [key, value] : properties) {
    if (conf->set(key, value, error) != RdKafka::Conf::CONF_OK) {
      return absl::InvalidArgumentError(
          absl::StrCat("Kafka property ", key, "=", value, ": ", error));
    }
  }
  return conf;
}

}  // namespace ratingd
