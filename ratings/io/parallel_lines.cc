#include "ratings/io/parallel_lines.h"

#include <algorithm>
#include <iterator>
#include <thread>
#include <utility>

namespace ratings::io {
namespace {

size_t CountLines(absl::string_view text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

}  // namespace

absl::StatusOr<ReadOutput> ParseLinesInHalves(absl::string_view content, LinesParser parse_lines) {
  const size_t middle = content.size() < kParallelBytes ? absl::string_view::npos
                                                        : content.find('\n', content.size() / 2);
  ReadOutput head;
  if (middle == absl::string_view::npos) {
    head.records.reserve(CountLines(content));
    const absl::Status status = parse_lines(content, 1, head);
    if (!status.ok()) return status;
    return head;
  }
  // The '\n' at `middle` ends the last line of the first half; the second half starts on
  // the line after it. The first half's records are reserved for the whole file, so that
  // the second half's are moved in after them without moving the first half's again.
  const absl::string_view first = content.substr(0, middle);
  const absl::string_view second = content.substr(middle + 1);
  const size_t first_lines = CountLines(first);
  const size_t second_lines = CountLines(second);
  head.records.reserve(first_lines + second_lines);
  ReadOutput tail;
  absl::Status tail_status;
  std::thread helper([&] {
    tail.records.reserve(second_lines);
    tail_status = parse_lines(second, static_cast<int64_t>(first_lines) + 1, tail);
  });
  const absl::Status head_status = parse_lines(first, 1, head);
  helper.join();
  if (!head_status.ok()) return head_status;
  if (!tail_status.ok()) return tail_status;
  std::move(tail.records.begin(), tail.records.end(), std::back_inserter(head.records));
  head.skipped_votes += tail.skipped_votes;
  return head;
}

}  // namespace ratings::io
