// Splitting a line-oriented file between two threads (the JSONL readers: battles.cc, jsonl.cc;
// the bodies of PrefLib files and score tables: preflib.cc, scores.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratings/io/read_results.h"

namespace ratings::io {

// Content from this size on is parsed in two halves (ParseLinesInHalves, SplitLines).
inline constexpr size_t kParallelBytes = size_t{1} << 20;

// The size from which content is split: kParallelBytes, unless a
// ScopedParallelBytesForTesting says otherwise.
size_t ParallelBytes();

// For tests: while alive, content is split from `bytes` on instead of kParallelBytes
// (SIZE_MAX: never, so every reader runs on one thread). Meant to be the only one alive;
// nested ones restore in reverse order.
class ScopedParallelBytesForTesting {
 public:
  explicit ScopedParallelBytesForTesting(size_t bytes);
  ~ScopedParallelBytesForTesting();
  ScopedParallelBytesForTesting(const ScopedParallelBytesForTesting&) = delete;
  ScopedParallelBytesForTesting& operator=(const ScopedParallelBytesForTesting&) = delete;

 private:
  size_t previous_;
};

// The lines of `text` (the '\n's plus one: a trailing partial or empty line counts).
size_t CountLines(absl::string_view text);

// `content` cut at the first '\n' from its middle: `first` ends before that '\n' and
// `second` starts after it, on line `second_first_line` when `content` starts on line
// `first_line`.
struct LineHalves {
  absl::string_view first;
  absl::string_view second;
  size_t first_lines = 0;   // CountLines(first)
  size_t second_lines = 0;  // CountLines(second)
  int64_t second_first_line = 0;
};

// The halves of `content`, or nullopt when it is shorter than ParallelBytes() or has no
// line end from its middle on (then it is parsed in one piece).
std::optional<LineHalves> SplitLines(absl::string_view content, int64_t first_line);

// Runs `first` on this thread and `second` on a helper thread at once; returns when both
// are done.
void RunOnTwoThreads(absl::FunctionRef<void()> first, absl::FunctionRef<void()> second);

// Reads `part` (whole lines) as if its first line were line `first_line` of the file,
// appending its records to `output` (whose records are reserved for every line of `part`),
// and stops at the first error.
using LinesParser =
    absl::FunctionRef<absl::Status(absl::string_view part, int64_t first_line, ReadOutput& output)>;

// The records of all of `content` by `parse_lines`. Content shorter than ParallelBytes(),
// or without a line end after its middle, is one call. Otherwise the content is cut at the
// first '\n' from its middle and the two halves are parsed on two threads at once, so
// `parse_lines` must be safe to call concurrently. Either way the records (with their lines)
// and the first error in file order are those of a single call on the whole: an error in the
// first half wins over one in the second.
absl::StatusOr<ReadOutput> ParseLinesInHalves(absl::string_view content, LinesParser parse_lines);

}  // namespace ratings::io
