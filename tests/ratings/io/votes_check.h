// The check both tests of the readers straight into votes (preflib_votes_test.cc,
// scores_votes_test.cc) run on every file: the reader against its reference
// (*_votes_reference.h), on one thread, split, and as read by default.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/vote_input.h"
#include "ratings/result.h"

namespace ratings::io::testing {

template <typename T>
std::vector<T> ToVector(absl::Span<const T> span) {
  return std::vector<T>(span.begin(), span.end());
}

// Checks `parse(content, filename, limits)` against its reference (`difference`, empty when
// they agree), read on one thread and, for a `small` file, split wherever the body's middle
// falls (from 1 byte on); returns it as read by default (two threads from kParallelBytes on).
template <typename Parse, typename Difference>
absl::StatusOr<VoteInput> CheckVotes(Parse parse, Difference difference, const std::string& content,
                                     const ResultLimits& limits, const std::string& filename,
                                     bool small) {
  {
    const ScopedParallelBytesForTesting one_thread(SIZE_MAX);
    EXPECT_EQ(difference(parse(content, filename, limits), content, filename, limits), "")
        << "one thread: " << content.substr(0, 2000);
  }
  if (small) {
    const ScopedParallelBytesForTesting split(1);
    EXPECT_EQ(difference(parse(content, filename, limits), content, filename, limits), "")
        << "split: " << content.substr(0, 2000);
  }
  absl::StatusOr<VoteInput> out = parse(content, filename, limits);
  EXPECT_EQ(difference(out, content, filename, limits), "");
  return out;
}

}  // namespace ratings::io::testing
