// Fuzzes ParseJsonl: it must never crash, every error must name the file, and every
// record it returns must pass ValidateResult.
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
      ratings::io::ParseJsonl(content, "fuzz.jsonl", limits);
  if (!out.ok()) {
    if (out.status().message().substr(0, 11) != "fuzz.jsonl:") std::abort();
    return 0;
  }
  for (const ratings::io::ResultRecord& record : out->records) {
    if (!ratings::ValidateResult(record.result, limits).ok()) std::abort();
    if (record.pool.empty() || record.game_id.empty() || record.line < 1) std::abort();
  }
  return 0;
}
