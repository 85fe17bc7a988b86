#include <cmath>
#include <cstdint>
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
#include "ratings/io/read_results.h"

namespace ratings::io {
namespace {

constexpr absl::string_view kWhitespace = " \t\v\f";
constexpr absl::string_view kPlusMinus = "\xC2\xB1";  // U+00B1 in UTF-8

bool IsDigit(char c) { return absl::ascii_isdigit(static_cast<unsigned char>(c)); }

// The integer part of a number: plain digits (possibly none), or digit groups separated
// by commas where the first group has 1-3 digits and every later group exactly 3.
// Returns the digits without separators, or nullopt.
std::optional<std::string> ParseIntegerPart(absl::string_view s) {
  if (s.find(',') == absl::string_view::npos) {
    for (char c : s) {
      if (!IsDigit(c)) return std::nullopt;
    }
    return std::string(s);
  }
  std::string digits;
  bool first = true;
  for (absl::string_view group : absl::StrSplit(s, ',')) {
    const bool size_ok = first ? (!group.empty() && group.size() <= 3) : group.size() == 3;
    if (!size_ok) return std::nullopt;
    for (char c : group) {
      if (!IsDigit(c)) return std::nullopt;
    }
    absl::StrAppend(&digits, group);
    first = false;
  }
  return digits;
}

// [+-] integer-part [. digits] [(e|E) [+-] digits], at least one mantissa digit, finite.
std::optional<double> ParseNumber(absl::string_view s) {
  std::string plain;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) plain.push_back(s[i++]);
  size_t end = s.find_first_of(".eE", i);
  if (end == absl::string_view::npos) end = s.size();
  const std::optional<std::string> integer = ParseIntegerPart(s.substr(i, end - i));
  if (!integer.has_value()) return std::nullopt;
  plain += *integer;
  size_t mantissa_digits = integer->size();
  i = end;
  if (i < s.size() && s[i] == '.') {
    plain.push_back(s[i++]);
    while (i < s.size() && IsDigit(s[i])) {
      plain.push_back(s[i++]);
      ++mantissa_digits;
    }
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    plain.push_back(s[i++]);
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) plain.push_back(s[i++]);
    const size_t exponent_start = i;
    while (i < s.size() && IsDigit(s[i])) plain.push_back(s[i++]);
    if (i == exponent_start) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  double value = 0;
  if (!absl::SimpleAtod(plain, &value) || !std::isfinite(value)) return std::nullopt;
  return value;
}

struct Cell {
  double mean = 0;
  double std = 0;
};

// A number, or `mean±std` / `mean+-std` (the std must parse and be >= 0).
std::optional<Cell> ParseCell(absl::string_view token) {
  size_t split = token.find(kPlusMinus);
  if (split == absl::string_view::npos) split = token.find("+-");
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

absl::string_view AsAbsl(std::string_view s) { return absl::string_view(s.data(), s.size()); }

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

}  // namespace

absl::StatusOr<ScoreTable> ParseScoreTable(std::string_view content_view,
                                           std::string_view filename_view,
                                           const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ScoreTable table;
  std::optional<std::pair<absl::string_view, int64_t>> last_comment;  // body, line
  bool have_header = false;                                           // set at the first data line
  int64_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const absl::string_view trimmed = absl::StripAsciiWhitespace(line);
    if (trimmed.empty()) continue;
    if (trimmed.front() == '#') {
      if (!have_header) last_comment.emplace(trimmed.substr(1), line_number);
      continue;
    }
    const std::string where = Where(filename, line_number);
    if (!have_header) {
      if (!last_comment.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, "no column header ('# game agent1 agent2 ...') before the first data line"));
      }
      absl::StatusOr<std::vector<std::string>> header =
          ParseColumnHeader(last_comment->first, Where(filename, last_comment->second), limits);
      if (!header.ok()) return header.status();
      table.agents = *std::move(header);
      have_header = true;
    }

    const std::vector<absl::string_view> tokens =
        absl::StrSplit(trimmed, absl::ByAnyChar(kWhitespace), absl::SkipEmpty());
    const absl::string_view task = tokens.front();
    const size_t num_scores = tokens.size() - 1;
    if (num_scores != table.agents.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "task ", task, " has ", num_scores, " scores, expected ",
                       table.agents.size(), " (agents: ", absl::StrJoin(table.agents, " "), ")"));
    }
    std::vector<double> means(num_scores);
    std::vector<double> stds(num_scores);
    for (size_t i = 0; i < num_scores; ++i) {
      const std::optional<Cell> cell = ParseCell(tokens[i + 1]);
      if (!cell.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(where, "column ", i + 2, " (agent ",
                                                       table.agents[i], "): cannot parse score '",
                                                       tokens[i + 1], "'"));
      }
      means[i] = cell->mean;
      stds[i] = cell->std;
    }
    table.tasks.emplace_back(task);
    table.lines.push_back(line_number);
    table.means.push_back(std::move(means));
    table.stds.push_back(std::move(stds));
  }
  return table;
}

absl::StatusOr<ReadOutput> ParseScores(std::string_view content, std::string_view filename,
                                       const ResultLimits& limits) {
  absl::StatusOr<ScoreTable> table = ParseScoreTable(content, filename, limits);
  if (!table.ok()) return table.status();
  ReadOutput output;
  for (size_t t = 0; t < table->tasks.size(); ++t) {
    const std::vector<double>& scores = table->means[t];
    ResultRecord record;
    record.task = table->tasks[t];
    record.line = table->lines[t];
    record.result.standings.reserve(scores.size());
    for (size_t i = 0; i < scores.size(); ++i) {
      uint32_t rank = 1;
      for (double other : scores) rank += other > scores[i] ? 1 : 0;
      record.result.standings.push_back(Standing{table->agents[i], rank, scores[i]});
    }
    if (absl::Status valid = ValidateResult(record.result, limits); !valid.ok()) {
      return absl::Status(valid.code(),
                          absl::StrCat(Where(AsAbsl(filename), record.line), valid.message()));
    }
    output.records.push_back(std::move(record));
  }
  return output;
}

}  // namespace ratings::io
