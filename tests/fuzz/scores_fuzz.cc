// Fuzzes ParseScores: it must never crash, every error must name the file, and every
// record it returns must pass ValidateResult with ranks no worse than the number of agents.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ratings/io/read_results.h"
#include "ratings/result.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  ratings::ResultLimits limits;
  limits.max_standings = 8;  // small, so that the limits are reached too
  limits.max_agent_id_bytes = 16;
  const absl::StatusOr<ratings::io::ReadOutput> out =
      ratings::io::ParseScores(content, "fuzz.txt", limits);
  if (!out.ok()) {
    if (out.status().message().substr(0, 9) != "fuzz.txt:") std::abort();
    return 0;
  }
  for (const ratings::io::ResultRecord& record : out->records) {
    if (!ratings::ValidateResult(record.result, limits).ok()) std::abort();
    if (record.task.empty() || record.line < 1 || record.result.weight != 1.0) std::abort();
    for (const ratings::Standing& s : record.result.standings) {
      if (s.rank > record.result.standings.size() || !s.score.has_value()) std::abort();
    }
  }
  return 0;
}
