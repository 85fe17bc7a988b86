// Fuzzes ParseScores (the property: parser_property.h); each record is one task line of
// weight 1 whose ranks are no worse than its number of agents, every agent with its score.
// And ParseScoresVotes, which reads the same tables straight into votes, must give exactly
// ToVoteSet of ParseScores' records (tests/ratings/io/scores_votes_reference.h): the same
// votes, ids and counts, or the same error; under small limits, and under limits above
// ToVoteSet's defaults, where its own check can refuse the first row.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ratings/io/scores_votes.h"
#include "tests/fuzz/parser_property.h"
#include "tests/fuzz/votes_property.h"
#include "tests/ratings/io/scores_votes_reference.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  ratingd_fuzz::CheckParser(
      content, "fuzz.txt", ratings::io::ParseScores,
      [](const ratings::io::ReadOutput&, const ratings::io::ResultRecord& record) {
        if (record.task.empty() || record.line < 1 || record.result.weight != 1.0) return false;
        for (const ratings::Standing& s : record.result.standings) {
          if (s.rank > record.result.standings.size() || !s.score.has_value()) return false;
        }
        return true;
      });
  ratingd_fuzz::CheckVotesReader(content, "fuzz.txt", ratings::io::ParseScoresVotes,
                                 ratings::io::testing::ScoresVotesDifference);
  return 0;
}
