// Fuzzes ParseScores (the property: parser_property.h); each record is one task line of
// weight 1 whose ranks are no worse than its number of agents, every agent with its score.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/parser_property.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ratingd_fuzz::CheckParser(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.txt",
      ratings::io::ParseScores,
      [](const ratings::io::ReadOutput&, const ratings::io::ResultRecord& record) {
        if (record.task.empty() || record.line < 1 || record.result.weight != 1.0) return false;
        for (const ratings::Standing& s : record.result.standings) {
          if (s.rank > record.result.standings.size() || !s.score.has_value()) return false;
        }
        return true;
      });
  return 0;
}
