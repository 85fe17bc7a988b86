// Fuzzes ParseJsonl (the property: parser_property.h); records carry a pool, a game id
// and their line.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/parser_property.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ratingd_fuzz::CheckParser(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.jsonl",
      ratings::io::ParseJsonl,
      [](const ratings::io::ReadOutput&, const ratings::io::ResultRecord& record) {
        return !record.pool.empty() && !record.game_id.empty() && record.line >= 1;
      });
  return 0;
}
