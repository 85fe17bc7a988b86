// Fuzzes ParseBattles and ParseBattlesCsv on the same input (the property: parser_property.h);
// each record is one battle of weight 1: two agents ranked 1/2, 2/1 or 1/1, opposite scores
// in [-1, 1] (or none) agreeing with the ranks, and the game id "<file name>:<line>".
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/parser_property.h"

namespace {

// The contract's mapping of a battle (docs/CONTRACTS.md §2.4).
bool IsBattle(const ratings::io::ResultRecord& record, std::string_view filename) {
  const std::vector<ratings::Standing>& s = record.result.standings;
  if (s.size() != 2 || record.result.weight != 1.0 || !record.pool.empty()) return false;
  if (record.line < 1) return false;
  if (record.game_id != std::string(filename) + ":" + std::to_string(record.line)) return false;
  const uint32_t a = s[0].rank;
  const uint32_t b = s[1].rank;
  if (!((a == 1 && b == 2) || (a == 2 && b == 1) || (a == 1 && b == 1))) return false;
  if (s[0].score.has_value() != s[1].score.has_value()) return false;
  if (!s[0].score.has_value()) return true;
  const double score = *s[0].score;
  if (!(score >= -1 && score <= 1) || *s[1].score != -score) return false;
  return a < b ? score > 0 : a > b ? score < 0 : score == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  ratingd_fuzz::CheckParser(
      content, "fuzz.jsonl", ratings::io::ParseBattles,
      [](const ratings::io::ReadOutput&, const ratings::io::ResultRecord& record) {
        return IsBattle(record, "fuzz.jsonl");
      });
  ratingd_fuzz::CheckParser(
      content, "fuzz.csv", ratings::io::ParseBattlesCsv,
      [](const ratings::io::ReadOutput&, const ratings::io::ResultRecord& record) {
        return IsBattle(record, "fuzz.csv");
      });
  return 0;
}
