// Fuzzes ParsePreflib (the property: parser_property.h); each record is one voter of
// weight 1. And ParsePreflibVotes, which reads the same files straight into votes, must give
// exactly ToVoteSet of ParsePreflib's records (tests/ratings/io/preflib_votes_reference.h):
// the same votes, ids and counts, or the same error; under small limits, and under
// limits above ToVoteSet's defaults, where its own check can refuse a vote.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ratings/io/preflib_votes.h"
#include "tests/fuzz/parser_property.h"
#include "tests/fuzz/votes_property.h"
#include "tests/ratings/io/preflib_votes_reference.h"

namespace {

// A line's count expands to that many records in ParsePreflib (and so in the reference of
// ParsePreflibVotes); inputs whose counts could add up to more than this skip the two checks
// that expand them, so that memory and time per input stay small (the parser's own limit is
// 10^8). The direct reader, which does not expand counts, still reads every input.
constexpr int64_t kMaxTotalCount = 1000;

// Over-approximates the parser's count: the digits before each line's first ':'.
bool CountsAreSmall(std::string_view content) {
  int64_t total = 0;
  size_t start = 0;
  while (start <= content.size()) {
    size_t end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    const std::string_view line = content.substr(start, end - start);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      int64_t count = 0;
      for (char c : line.substr(0, colon)) {
        if (c < '0' || c > '9') continue;
        count = count * 10 + (c - '0');
        if (count > kMaxTotalCount) return false;
      }
      total += count;
      if (total > kMaxTotalCount) return false;
    }
    start = end + 1;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  if (!CountsAreSmall(content)) {
    ratingd_fuzz::ReadVotes(content, "fuzz.soi", ratings::io::ParsePreflibVotes);
    return 0;
  }
  ratingd_fuzz::CheckParser(
      content, "fuzz.soi", ratings::io::ParsePreflib,
      [](const ratings::io::ReadOutput& out, const ratings::io::ResultRecord& record) {
        return out.skipped_votes >= 0 && record.line >= 1 && record.result.weight == 1.0;
      });
  ratingd_fuzz::CheckVotesReader(content, "fuzz.soi", ratings::io::ParsePreflibVotes,
                                 ratings::io::testing::VotesDifference);
  return 0;
}
