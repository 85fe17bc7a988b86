// The standard process_* metrics (prometheus-cpp does not add them): resident memory,
// CPU seconds, start time and open file descriptors, read from /proc/self at scrape time.
#pragma once

#include <vector>

#include "absl/time/time.h"
#include "prometheus/collectable.h"
#include "prometheus/metric_family.h"

namespace ratingd {

class ProcessMetrics : public prometheus::Collectable {
 public:
  // `start_time`: when the process started (process_start_time_seconds).
  explicit ProcessMetrics(absl::Time start_time);
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  double start_time_seconds_;
};

}  // namespace ratingd
