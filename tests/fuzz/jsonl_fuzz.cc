// Fuzzes ParseJsonl (the property: parser_property.h); records carry a pool, a game id
// and their line. And ParseJsonl, with its simdjson fast path, must give exactly what the
// protobuf-only reference reader gives (tests/ratings/io/jsonl_reference.h): the same
// records or the same error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tests/fuzz/parser_property.h"
#include "tests/ratings/io/jsonl_reference.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  ratingd_fuzz::CheckParser(
      content, "fuzz.jsonl", ratings::io::ParseJsonl,
      [](const ratings::io::ReadOutput&, const ratings::io::ResultRecord& record) {
        return !record.pool.empty() && !record.game_id.empty() && record.line >= 1;
      });
  ratings::ResultLimits limits;
  limits.max_standings = 8;
  limits.max_agent_id_bytes = 16;
  if (!ratings::io::testing::OutputDifference(
           ratings::io::ParseJsonl(content, "fuzz.jsonl", limits),
           ratings::io::testing::ReferenceParseJsonl(content, "fuzz.jsonl", limits))
           .empty()) {
    std::abort();
  }
  return 0;
}
