// The property the fuzzers of the readers straight into votes check (ParsePreflibVotes,
// ParseScoresVotes): under small limits, and under limits above ToVoteSet's defaults
// (where its own check can refuse a vote), the reader gives exactly its reference, read on
// one thread and split in two halves at every size (fuzzed inputs are far below
// kParallelBytes). Aborts otherwise, which libFuzzer reports as a crash.
#pragma once

#include <cstdlib>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/vote_input.h"
#include "ratings/result.h"

namespace ratingd_fuzz {

// `parse(content, filename, limits)` is the reader; `difference(got, content, filename,
// limits)` is empty when `got` is its reference's output (tests/ratings/io/*_reference.h).
// The limits CheckVotesReader reads under: small ones, and ones above ToVoteSet's defaults.
inline std::vector<ratings::ResultLimits> VotesLimits() {
  ratings::ResultLimits small;
  small.max_standings = 8;
  small.max_agent_id_bytes = 16;
  ratings::ResultLimits large;
  large.max_standings = 300;
  large.max_agent_id_bytes = 300;
  return {small, large};
}

// The reader alone, under both limits, on one thread and split in two (no reference: an
// input too costly to expand into records); a crash or sanitizer report is the finding.
template <typename ParseVotes>
void ReadVotes(std::string_view content, std::string_view filename, ParseVotes parse) {
  for (const ratings::ResultLimits& limits : VotesLimits()) {
    parse(content, filename, limits).IgnoreError();
    const ratings::io::ScopedParallelBytesForTesting two_threads(1);
    parse(content, filename, limits).IgnoreError();
  }
}

template <typename ParseVotes, typename Difference>
void CheckVotesReader(std::string_view content, std::string_view filename, ParseVotes parse,
                      Difference difference) {
  for (const ratings::ResultLimits& limits : VotesLimits()) {
    const absl::StatusOr<ratings::io::VoteInput> one_thread = parse(content, filename, limits);
    absl::StatusOr<ratings::io::VoteInput> split;
    {
      const ratings::io::ScopedParallelBytesForTesting two_threads(1);
      split = parse(content, filename, limits);
    }
    if (!difference(one_thread, content, filename, limits).empty() ||
        !difference(split, content, filename, limits).empty()) {
      std::abort();
    }
  }
}

}  // namespace ratingd_fuzz
