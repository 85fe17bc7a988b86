// The score-table syntax (read_results.h, above ParseScores) shared by its readers:
// ParseScores and ParseScoreTable (read_results.h, scores.cc) and ParseScoresVotes
// (scores_votes.h: straight to a vote set, scores_votes.cc). All read the header and every
// data line through these functions, so that they accept the same files and report the same
// errors with the same messages; only what they build from a row differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "ratings/result.h"

namespace ratings::io::scores {

// The line of `text` that starts at `*start`, without its '\n'; moves `*start` past it.
// Called while *start <= text.size(), it yields what absl::StrSplit(text, '\n') yields: a
// last, possibly empty, line after the last '\n'.
inline absl::string_view NextLine(absl::string_view text, size_t* start) {
  size_t end = text.find('\n', *start);
  if (end == absl::string_view::npos) end = text.size();
  const absl::string_view line = text.substr(*start, end - *start);
  *start = end + 1;
  return line;
}

// A line with its '\r' and surrounding whitespace removed; empty when blank.
inline absl::string_view Trimmed(absl::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return absl::StripAsciiWhitespace(line);
}

// Whether a line, as Trimmed returns it, is a data line: neither blank nor a comment
// (comments after the first data line are ignored).
inline bool IsDataLine(absl::string_view trimmed) {
  return !trimmed.empty() && trimmed.front() != '#';
}

// A score: [+-] integer-part [. digits] [(e|E) [+-] digits], at least one mantissa digit,
// finite. The integer part is plain digits, or groups of 3 after a first of 1-3 separated
// by commas (1,486.5). Its value is absl::SimpleAtod's of the number without its commas.
std::optional<double> ParseNumber(absl::string_view s);

// The data lines of a file: its text from the first one on, with what reading them needs
// (fixed by the column header and shared by both threads).
struct Body {
  absl::string_view filename;
  std::vector<std::string> agents;  // the column header's
  absl::string_view text;           // from the first data line on
  int64_t first_line = 0;           // the first data line's number
};

// The comment lines up to the first data line, and the column header among them: the last.
// nullopt when there is no data line (then nothing is checked: an empty table).
absl::StatusOr<std::optional<Body>> ParseHeader(absl::string_view content,
                                                absl::string_view filename,
                                                const ResultLimits& limits);

// Reads one data line into task(), means() and stds(). One per thread: its vectors keep
// their capacity from line to line.
class RowParser {
 public:
  explicit RowParser(const Body& body) : body_(body) {
    means_.resize(body.agents.size());
    stds_.resize(body.agents.size());
  }

  // `trimmed` is a data line as Trimmed returns it (IsDataLine).
  absl::Status Parse(absl::string_view trimmed, int64_t line_number);

  absl::string_view task() const { return task_; }
  const std::vector<double>& means() const { return means_; }
  const std::vector<double>& stds() const { return stds_; }

 private:
  const Body& body_;
  std::vector<absl::string_view> tokens_;
  absl::string_view task_;
  std::vector<double> means_;
  std::vector<double> stds_;
};

// Rows to reserve for the data lines of `text` with `num_agents` scores each: its lines,
// but no more than fit in its size (a row has num_agents + 1 tokens, each of a byte and
// followed by a separator or the line end).
size_t RowsToReserve(absl::string_view text, size_t num_agents);

// The data lines of `part`: exactly the rows ParseRows gives when none fails.
size_t CountRows(absl::string_view part);

// Reads the data lines of `part`, whose first line is line `first_line` of the file, giving
// each row to on_row(row_parser, line_number) in file order; stops at the first error.
template <typename OnRow>
absl::Status ParseRows(absl::string_view part, int64_t first_line, const Body& body, OnRow on_row) {
  RowParser row(body);
  int64_t line_number = first_line - 1;
  size_t start = 0;
  while (start <= part.size()) {
    const absl::string_view trimmed = Trimmed(NextLine(part, &start));
    ++line_number;
    if (!IsDataLine(trimmed)) continue;
    if (absl::Status status = row.Parse(trimmed, line_number); !status.ok()) return status;
    on_row(row, line_number);
  }
  return absl::OkStatus();
}

// Scratch space of Ranks, kept from row to row.
struct RankScratch {
  std::vector<uint64_t> keys;
  std::vector<AgentId> order;
};

// The competition ranks of `scores` into ranks[0, scores.size()): 1 + how many scores are
// strictly higher, so equal scores tie (-0.0 and 0.0 among them). Unless `best_first` is
// null, also the columns from the highest score down, equal scores in column order, into
// best_first[0, scores.size()): a stable sort by rank, as VoteSet::BestFirst orders a vote.
void Ranks(absl::Span<const double> scores, uint32_t* ranks, AgentId* best_first,
           RankScratch& scratch);

}  // namespace ratings::io::scores
