#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/read_results.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

constexpr absl::string_view kWhitespace = " \t\v\f";
constexpr absl::string_view kPlusMinus = "\xC2\xB1";  // U+00B1 in UTF-8

bool IsDigit(char c) { return absl::ascii_isdigit(static_cast<unsigned char>(c)); }

// The integer part of a number: plain digits (possibly none), or digit groups separated
// by commas where the first group has 1-3 digits and every later group exactly 3. Returns
// whether `s` is one, with *digits set to its count of digits and *commas to whether it
// has separators.
bool ParseIntegerPart(absl::string_view s, size_t* digits, bool* commas) {
  size_t group = 0;  // digits of the current group
  *digits = 0;
  *commas = false;
  for (char c : s) {
    if (IsDigit(c)) {
      ++group;
      ++*digits;
      // Only the first group may be shorter than 3 digits, and none longer when grouped.
      if (*commas && group > 3) return false;
    } else if (c == ',') {
      if (*commas ? group != 3 : (group == 0 || group > 3)) return false;
      *commas = true;
      group = 0;
    } else {
      return false;
    }
  }
  return !*commas || group == 3;
}

// [+-] integer-part [. digits] [(e|E) [+-] digits], at least one mantissa digit, finite.
// Once the syntax is checked, the value is absl::SimpleAtod's of `s` without its thousands
// separators; `s` itself when it has none, the usual case, so that nothing is copied.
std::optional<double> ParseNumber(absl::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t end = i;  // the first '.', 'e' or 'E' from i on, else the end
  while (end < s.size() && s[end] != '.' && s[end] != 'e' && s[end] != 'E') ++end;
  size_t mantissa_digits = 0;
  bool commas = false;
  if (!ParseIntegerPart(s.substr(i, end - i), &mantissa_digits, &commas)) return std::nullopt;
  i = end;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) {
      ++i;
      ++mantissa_digits;
    }
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t exponent_start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == exponent_start) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  double value = 0;
  if (commas) {
    // Commas appear only in the integer part, so dropping them all drops just those.
    std::string plain;
    plain.reserve(s.size());
    for (char c : s) {
      if (c != ',') plain.push_back(c);
    }
    if (!absl::SimpleAtod(plain, &value)) return std::nullopt;
  } else if (!absl::SimpleAtod(s, &value)) {
    return std::nullopt;
  }
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

struct Cell {
  double mean = 0;
  double std = 0;
};

// Where `token` splits into mean and std: at its first '±' if it has one, else at its first
// "+-"; npos when it has neither. One pass for both.
size_t FindSpread(absl::string_view token) {
  size_t plus_minus = absl::string_view::npos;
  for (size_t i = 0; i + 1 < token.size(); ++i) {
    if (token[i] == kPlusMinus[0] && token[i + 1] == kPlusMinus[1]) return i;
    if (plus_minus == absl::string_view::npos && token[i] == '+' && token[i + 1] == '-') {
      plus_minus = i;
    }
  }
  return plus_minus;
}

// A number, or `mean±std` / `mean+-std` (the std must parse and be >= 0).
std::optional<Cell> ParseCell(absl::string_view token) {
  const size_t split = FindSpread(token);
  if (split == absl::string_view::npos) {
    const std::optional<double> mean = ParseNumber(token);
    if (!mean.has_value()) return std::nullopt;
    return Cell{*mean, 0.0};
  }
  // Both separators are two bytes long.
  const std::optional<double> std = ParseNumber(token.substr(split + 2));
  const std::optional<double> mean = ParseNumber(token.substr(0, split));
  if (!std.has_value() || !mean.has_value() || *std < 0) return std::nullopt;
  return Cell{*mean, *std};
}

std::string Where(absl::string_view filename, int64_t line_number) {
  return absl::StrCat(filename, ":", line_number, ": ");
}

// The agents named by the column header `# game agent1 agent2 ...`.
absl::StatusOr<std::vector<std::string>> ParseColumnHeader(absl::string_view body,
                                                           absl::string_view where,
                                                           const ResultLimits& limits) {
  std::vector<std::string> columns =
      absl::StrSplit(body, absl::ByAnyChar(kWhitespace), absl::SkipEmpty());
  const size_t num_agents = columns.empty() ? 0 : columns.size() - 1;
  if (num_agents < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "the column header ('# game agent1 agent2 ...') names ", num_agents,
                     " agents; a score table needs at least 2"));
  }
  if (num_agents > limits.max_standings) {
    return absl::InvalidArgumentError(absl::StrCat(where, "the column header names ", num_agents,
                                                   " agents, more than the limit of ",
                                                   limits.max_standings));
  }
  std::vector<std::string> agents(columns.begin() + 1, columns.end());
  absl::flat_hash_set<absl::string_view> seen;
  for (const std::string& agent : agents) {
    if (agent.size() > limits.max_agent_id_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(where, "agent id of ", agent.size(),
                                                     " bytes exceeds the limit of ",
                                                     limits.max_agent_id_bytes));
    }
    if (!seen.insert(agent).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "agent '", agent, "' appears twice in the column header"));
    }
  }
  return agents;
}

// The line of `text` that starts at `*start`, without its '\n'; moves `*start` past it.
// Called while *start <= text.size(), it yields what absl::StrSplit(text, '\n') yields: a
// last, possibly empty, line after the last '\n'.
absl::string_view NextLine(absl::string_view text, size_t* start) {
  size_t end = text.find('\n', *start);
  if (end == absl::string_view::npos) end = text.size();
  const absl::string_view line = text.substr(*start, end - *start);
  *start = end + 1;
  return line;
}

// A line with its '\r' and surrounding whitespace removed; empty when blank.
absl::string_view Trimmed(absl::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return absl::StripAsciiWhitespace(line);
}

// One of kWhitespace.
bool IsSeparator(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

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
                                                const ResultLimits& limits) {
  std::optional<std::pair<absl::string_view, int64_t>> last_comment;  // body, line
  int64_t line_number = 0;
  size_t start = 0;
  while (start <= content.size()) {
    const size_t line_start = start;
    const absl::string_view trimmed = Trimmed(NextLine(content, &start));
    ++line_number;
    if (trimmed.empty()) continue;
    if (trimmed.front() == '#') {
      last_comment.emplace(trimmed.substr(1), line_number);
      continue;
    }
    if (!last_comment.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(filename, line_number),
                       "no column header ('# game agent1 agent2 ...') before the first data line"));
    }
    Body body;
    body.filename = filename;
    ASSIGN_OR_RETURN(body.agents, ParseColumnHeader(last_comment->first,
                                                    Where(filename, last_comment->second), limits));
    body.text = content.substr(line_start);
    body.first_line = line_number;
    return body;
  }
  return std::nullopt;
}

// Reads one data line into task(), means() and stds(). One per thread: its vectors keep
// their capacity from line to line.
class RowParser {
 public:
  explicit RowParser(const Body& body) : body_(body) {
    means_.resize(body.agents.size());
    stds_.resize(body.agents.size());
  }

  // `trimmed` is a data line as Trimmed returns it, neither blank nor a comment.
  absl::Status Parse(absl::string_view trimmed, int64_t line_number) {
    tokens_.clear();
    size_t i = 0;
    while (i < trimmed.size()) {
      while (i < trimmed.size() && IsSeparator(trimmed[i])) ++i;
      if (i == trimmed.size()) break;
      const size_t token_start = i;
      while (i < trimmed.size() && !IsSeparator(trimmed[i])) ++i;
      tokens_.push_back(trimmed.substr(token_start, i - token_start));
    }
    // `trimmed` starts with a character that is not whitespace: there is a first token.
    task_ = tokens_.front();
    const size_t num_scores = tokens_.size() - 1;
    const std::vector<std::string>& agents = body_.agents;
    if (num_scores != agents.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          Where(body_.filename, line_number), "task ", task_, " has ", num_scores,
          " scores, expected ", agents.size(), " (agents: ", absl::StrJoin(agents, " "), ")"));
    }
    for (size_t a = 0; a < num_scores; ++a) {
      const std::optional<Cell> cell = ParseCell(tokens_[a + 1]);
      if (!cell.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(body_.filename, line_number), "column ", a + 2, " (agent ",
                         agents[a], "): cannot parse score '", tokens_[a + 1], "'"));
      }
      means_[a] = cell->mean;
      stds_[a] = cell->std;
    }
    return absl::OkStatus();
  }

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
size_t RowsToReserve(absl::string_view text, size_t num_agents) {
  return std::min(CountLines(text), text.size() / (2 * (num_agents + 1)) + 1);
}

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
    // Comments after the first data line are ignored.
    if (trimmed.empty() || trimmed.front() == '#') continue;
    if (absl::Status status = row.Parse(trimmed, line_number); !status.ok()) return status;
    on_row(row, line_number);
  }
  return absl::OkStatus();
}

void AppendPart(ScoreTable& head, ScoreTable&& tail) {
  auto append = [](auto& to, auto& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  append(head.tasks, tail.tasks);
  append(head.lines, tail.lines);
  append(head.means, tail.means);
  append(head.stds, tail.stds);
}

void AppendPart(ReadOutput& head, ReadOutput&& tail) {
  head.records.insert(head.records.end(), std::make_move_iterator(tail.records.begin()),
                      std::make_move_iterator(tail.records.end()));
}

// parse_part(part, first_line, output) over the data lines of `body`: in two halves on two
// threads when long enough (parallel_lines.h). Rows depend only on their line and the
// column header, so the halves' rows, appended, are the file's, and the first half's error
// is the first in the file.
template <typename Output, typename ParsePart>
absl::Status ParseBody(const Body& body, ParsePart parse_part, Output& output) {
  const std::optional<LineHalves> halves = SplitLines(body.text, body.first_line);
  if (!halves.has_value()) return parse_part(body.text, body.first_line, output);
  Output tail;
  absl::Status head_status;
  absl::Status tail_status;
  RunOnTwoThreads(
      [&] { head_status = parse_part(halves->first, body.first_line, output); },
      [&] { tail_status = parse_part(halves->second, halves->second_first_line, tail); });
  if (!head_status.ok()) return head_status;
  if (!tail_status.ok()) return tail_status;
  AppendPart(output, std::move(tail));
  return absl::OkStatus();
}

// Competition ranks of `scores` into `ranks`: 1 + how many scores are strictly higher,
// so equal scores tie. `sorted` is scratch.
void Ranks(const std::vector<double>& scores, std::vector<uint32_t>& ranks,
           std::vector<std::pair<double, uint32_t>>& sorted) {
  const size_t k = scores.size();
  ranks.resize(k);
  // Few agents: count directly; below about 32 the k^2 comparisons beat sorting.
  constexpr size_t kCountUpTo = 32;
  if (k <= kCountUpTo) {
    for (size_t i = 0; i < k; ++i) {
      uint32_t rank = 1;
      for (double other : scores) rank += other > scores[i] ? 1 : 0;
      ranks[i] = rank;
    }
    return;
  }
  // Many: sort from the highest score down; the first of a run of equal scores is preceded
  // by exactly the higher ones, and the run shares its rank.
  sorted.resize(k);
  for (size_t i = 0; i < k; ++i) sorted[i] = {scores[i], static_cast<uint32_t>(i)};
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  uint32_t rank = 1;
  for (size_t p = 0; p < k; ++p) {
    if (p > 0 && sorted[p].first != sorted[p - 1].first) rank = static_cast<uint32_t>(p + 1);
    ranks[sorted[p].second] = rank;
  }
}

}  // namespace

absl::StatusOr<ScoreTable> ParseScoreTable(std::string_view content_view,
                                           std::string_view filename_view,
                                           const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ASSIGN_OR_RETURN(const std::optional<Body> body, ParseHeader(content, filename, limits));
  ScoreTable table;
  if (!body.has_value()) return table;
  auto reserve = [&](absl::string_view text, ScoreTable& out) {
    const size_t rows = RowsToReserve(text, body->agents.size());
    out.tasks.reserve(rows);
    out.lines.reserve(rows);
    out.means.reserve(rows);
    out.stds.reserve(rows);
  };
  auto parse_part = [&](absl::string_view part, int64_t first_line, ScoreTable& out) {
    reserve(part, out);
    return ParseRows(part, first_line, *body, [&](const RowParser& row, int64_t line_number) {
      out.tasks.emplace_back(row.task());
      out.lines.push_back(line_number);
      out.means.push_back(row.means());
      out.stds.push_back(row.stds());
    });
  };
  // Room for the whole file in the first half's table (as in ParseScores).
  reserve(body->text, table);
  RETURN_IF_ERROR(ParseBody(*body, parse_part, table));
  table.agents = body->agents;
  return table;
}

absl::StatusOr<ReadOutput> ParseScores(std::string_view content_view,
                                       std::string_view filename_view, const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ASSIGN_OR_RETURN(const std::optional<Body> body, ParseHeader(content, filename, limits));
  ReadOutput output;
  if (!body.has_value()) return output;
  // Each row becomes its record directly, without the table in between. Such a record
  // always passes ValidateResult, so it is not run: the column header has 2..max_standings
  // distinct, non-empty agents within max_agent_id_bytes, ranks start at 1, every score is
  // finite (ParseNumber) and the weight is 1.
  auto parse_part = [&](absl::string_view part, int64_t first_line, ReadOutput& out) {
    out.records.reserve(RowsToReserve(part, body->agents.size()));
    std::vector<uint32_t> ranks;
    std::vector<std::pair<double, uint32_t>> sorted;
    return ParseRows(part, first_line, *body, [&](const RowParser& row, int64_t line_number) {
      Ranks(row.means(), ranks, sorted);
      ResultRecord& record = out.records.emplace_back();
      record.task = std::string(row.task());
      record.line = line_number;
      std::vector<Standing>& standings = record.result.standings;
      standings.resize(body->agents.size());
      for (size_t a = 0; a < standings.size(); ++a) {
        standings[a].agent = body->agents[a];
        standings[a].rank = ranks[a];
        standings[a].score = row.means()[a];
      }
    });
  };
  // Room for the whole file in the first half's output, so that the second half's records
  // are moved in after its own without moving those.
  output.records.reserve(RowsToReserve(body->text, body->agents.size()));
  RETURN_IF_ERROR(ParseBody(*body, parse_part, output));
  return output;
}

}  // namespace ratings::io
