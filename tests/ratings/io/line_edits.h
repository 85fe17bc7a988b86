// Line edits and line numbers for the reader tests that break a file in either half
// (preflib_votes_test.cc, scores_votes_test.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace ratings::io::testing {

// The 1-based line of "FILE:LINE: ..." in a message.
inline int64_t MessageLine(const absl::Status& status) {
  const std::vector<std::string> parts = absl::StrSplit(status.message(), ':');
  int64_t line = 0;
  EXPECT_TRUE(parts.size() > 2 && absl::SimpleAtoi(parts[1], &line)) << status;
  return line;
}

// `text` with the line at or after `offset` replaced by `line`.
inline std::string WithLine(std::string text, size_t offset, const std::string& line) {
  const size_t start = text.find('\n', offset) + 1;
  text.replace(start, text.find('\n', start) - start, line);
  return text;
}

}  // namespace ratings::io::testing
