#include "ratings/io/parallel_lines.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <thread>
#include <utility>

namespace ratings::io {
namespace {

std::atomic<size_t> parallel_bytes{kParallelBytes};

}  // namespace

size_t ParallelBytes() { return parallel_bytes.load(std::memory_order_relaxed); }

ScopedParallelBytesForTesting::ScopedParallelBytesForTesting(size_t bytes)
    : previous_(parallel_bytes.exchange(bytes)) {}

ScopedParallelBytesForTesting::~ScopedParallelBytesForTesting() { parallel_bytes.store(previous_); }

size_t CountLines(absl::string_view text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

std::optional<LineHalves> SplitLines(absl::string_view content, int64_t first_line) {
  if (content.size() < ParallelBytes()) return std::nullopt;
  const size_t middle = content.find('\n', content.size() / 2);
  if (middle == absl::string_view::npos) return std::nullopt;
  // The '\n' at `middle` ends the last line of the first half; the second half starts on
  // the line after it.
  LineHalves halves;
  halves.first = content.substr(0, middle);
  halves.second = content.substr(middle + 1);
  halves.first_lines = CountLines(halves.first);
  halves.second_lines = CountLines(halves.second);
  halves.second_first_line = first_line + static_cast<int64_t>(halves.first_lines);
  return halves;
}

void RunOnTwoThreads(absl::FunctionRef<void()> first, absl::FunctionRef<void()> second) {
  std::thread helper([&] { second(); });
  first();
  helper.join();
}

absl::StatusOr<ReadOutput> ParseLinesInHalves(absl::string_view content, LinesParser parse_lines) {
  const std::optional<LineHalves> halves = SplitLines(content, 1);
  ReadOutput head;
  if (!halves.has_value()) {
    head.records.reserve(CountLines(content));
    const absl::Status status = parse_lines(content, 1, head);
    if (!status.ok()) return status;
    return head;
  }
  // The first half's records are reserved for the whole file, so that the second half's
  // are moved in after them without moving the first half's again.
  head.records.reserve(halves->first_lines + halves->second_lines);
  ReadOutput tail;
  absl::Status head_status;
  absl::Status tail_status;
  RunOnTwoThreads([&] { head_status = parse_lines(halves->first, 1, head); },
                  [&] {
                    tail.records.reserve(halves->second_lines);
                    tail_status = parse_lines(halves->second, halves->second_first_line, tail);
                  });
  if (!head_status.ok()) return head_status;
  if (!tail_status.ok()) return tail_status;
  std::move(tail.records.begin(), tail.records.end(), std::back_inserter(head.records));
  head.skipped_votes += tail.skipped_votes;
  return head;
}

}  // namespace ratings::io
