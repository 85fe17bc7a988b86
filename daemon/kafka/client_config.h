// librdkafka client configuration for ratingd and ratingctl, with errors that say what to
// fix: --kafka KEY=VALUE items and properties files, then an RdKafka::Conf.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "librdkafka/rdkafkacpp.h"

namespace ratingd {

using KafkaProperties = std::vector<std::pair<std::string, std::string>>;

// "key=value" items (a --kafka flag) and, if `file` is non-empty, a properties file
// (key=value lines, # comments). InvalidArgument naming the item or FILE:LINE.
absl::StatusOr<KafkaProperties> ParseKafkaProperties(const std::vector<std::string>& items,
                                                     const std::string& file);

// A global configuration with `properties` set in order; InvalidArgument naming the
// property librdkafka refused and why.
absl::StatusOr<std::unique_ptr<RdKafka::Conf>> MakeConf(const KafkaProperties& properties);

}  // namespace ratingd
