// The standard process_* metrics (prometheus-cpp does not add them): resident memory,
// CPU seconds, start time and open file descriptors, read from /proc/self at scrape time.
#pragma once

#include <vector>

#include "prometheus/collectable.h"
#include "prometheus/metric_family.h"

namespace ratingd {

class ProcessMetrics : public prometheus::Collectable {
 public:
  ProcessMetrics();
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  double start_time_seconds_;
};

}  // namespace ratingd
