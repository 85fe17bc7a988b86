#include "daemon/ratingd/process_metrics.h"

#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace ratingd {
namespace {

prometheus::MetricFamily Gauge(const char* name, const char* help, double value,
                               prometheus::MetricType type = prometheus::MetricType::Gauge) {
  prometheus::MetricFamily family;
  family.name = name;
  family.help = help;
  family.type = type;
  prometheus::ClientMetric metric;
  if (type == prometheus::MetricType::Counter) {
    metric.counter.value = value;
  } else {
    metric.gauge.value = value;
  }
  family.metric.push_back(metric);
  return family;
}

// Fields 14 (utime), 15 (stime) and 22 (starttime) of /proc/self/stat, in clock ticks.
bool ReadStat(double* cpu_ticks, double* start_ticks) {
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const size_t close = line.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return false;
  std::istringstream fields(line.substr(close + 2));
  std::string f;
  double utime = 0, stime = 0, start = 0;
  for (int i = 3; fields >> f; ++i) {
    if (i == 14) utime = std::stod(f);
    if (i == 15) stime = std::stod(f);
    if (i == 22) {
      start = std::stod(f);
      break;
    }
  }
  *cpu_ticks = utime + stime;
  *start_ticks = start;
  return true;
}

}  // namespace

ProcessMetrics::ProcessMetrics(absl::Time start_time)
    : start_time_seconds_(absl::ToDoubleSeconds(start_time - absl::UnixEpoch())) {}

std::vector<prometheus::MetricFamily> ProcessMetrics::Collect() const {
  std::vector<prometheus::MetricFamily> out;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  double cpu = 0, start = 0;
  if (ReadStat(&cpu, &start) && ticks > 0) {
    out.push_back(Gauge("process_cpu_seconds_total", "User and system CPU time spent, seconds",
                        cpu / ticks, prometheus::MetricType::Counter));
  }
  out.push_back(Gauge("process_start_time_seconds", "Start time of the process, Unix seconds",
                      start_time_seconds_));
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      out.push_back(Gauge("process_resident_memory_bytes", "Resident memory size, bytes",
                          std::stod(line.substr(6)) * 1024));
    }
  }
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    double fds = 0;
    while (::readdir(dir) != nullptr) ++fds;
    ::closedir(dir);
    out.push_back(Gauge("process_open_fds", "Open file descriptors", fds - 2));  // . and ..
  }
  return out;
}

}  // namespace ratingd
