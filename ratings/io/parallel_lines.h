// Splitting a line-oriented file between two threads (the JSONL readers: battles.cc, jsonl.cc).
#pragma once

#include <cstddef>
#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratings/io/read_results.h"

namespace ratings::io {

// Content from this size on is parsed in two halves (ParseLinesInHalves).
inline constexpr size_t kParallelBytes = size_t{1} << 20;

// Reads `part` (whole lines) as if its first line were line `first_line` of the file,
// appending its records to `output` (whose records are reserved for every line of `part`),
// and stops at the first error.
using LinesParser =
    absl::FunctionRef<absl::Status(absl::string_view part, int64_t first_line, ReadOutput& output)>;

// The records of all of `content` by `parse_lines`. Content shorter than kParallelBytes,
// or without a line end after its middle, is one call. Otherwise the content is cut at the
// first '\n' from its middle and the two halves are parsed on two threads at once, so
// `parse_lines` must be safe to call concurrently. Either way the records (with their lines)
// and the first error in file order are those of a single call on the whole: an error in the
// first half wins over one in the second.
absl::StatusOr<ReadOutput> ParseLinesInHalves(absl::string_view content, LinesParser parse_lines);

}  // namespace ratings::io
