#include "ratings/io/scores_syntax.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
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
#include "ratings/io/parallel_lines.h"
#include "ratings/status_macros.h"

namespace ratings::io::scores {
namespace {

constexpr absl::string_view kWhitespace = " \t\v\f";
constexpr absl::string_view kPlusMinus = "\xC2\xB1";  // U+00B1 in UTF-8

bool IsDigit(char c) { return absl::ascii_isdigit(static_cast<unsigned char>(c)); }

// Clinger's fast path: a decimal of at most 15 digits and no exponent is m / 10^f with m
// and 10^f exact doubles (below 2^53), and IEEE division rounds their exact quotient
// correctly, as absl::SimpleAtod rounds every decimal: the same double, without its
// general algorithm or a copy without the separators.
constexpr size_t kFastDigits = 15;
constexpr double kPowersOfTen[kFastDigits + 1] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                  1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

}  // namespace

std::optional<double> ParseNumber(absl::string_view s) {
  // One pass over the syntax, [+-] integer-part [. digits] [(e|E) [+-] digits], gathering
  // the mantissa's digits as it goes (the fast path needs at most 15).
  const char* p = s.data();
  const char* const end = p + s.size();
  if (p != end && (*p == '+' || *p == '-')) ++p;
  uint64_t mantissa = 0;
  size_t mantissa_digits = 0;
  const auto take = [&](char c) {
    if (mantissa_digits++ < kFastDigits) mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
  };
  // The integer part: plain digits (possibly none), or digit groups separated by commas
  // where the first group has 1-3 digits and every later group exactly 3.
  size_t group = 0;  // digits of the current group
  bool commas = false;
  for (; p != end && *p != '.' && *p != 'e' && *p != 'E'; ++p) {
    if (IsDigit(*p)) {
      // Only the first group may be shorter than 3 digits, and none longer when grouped.
      if (++group > 3 && commas) return std::nullopt;
      take(*p);
    } else if (*p == ',') {
      if (commas ? group != 3 : (group == 0 || group > 3)) return std::nullopt;
      commas = true;
      group = 0;
    } else {
      return std::nullopt;
    }
  }
  if (commas && group != 3) return std::nullopt;
  size_t fraction_digits = 0;
  if (p != end && *p == '.') {
    for (++p; p != end && IsDigit(*p); ++p) {
      take(*p);
      ++fraction_digits;
    }
  }
  if (mantissa_digits == 0) return std::nullopt;
  const bool exponent = p != end && (*p == 'e' || *p == 'E');
  if (exponent) {
    ++p;
    if (p != end && (*p == '+' || *p == '-')) ++p;
    const char* const exponent_start = p;
    while (p != end && IsDigit(*p)) ++p;
    if (p == exponent_start) return std::nullopt;
  }
  if (p != end) return std::nullopt;
  if (!exponent && mantissa_digits <= kFastDigits) {
    const double value = static_cast<double>(mantissa) / kPowersOfTen[fraction_digits];
    return s.front() == '-' ? -value : value;  // "-0" is -0.0, as SimpleAtod gives it
  }
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

namespace {

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
  // A number first, the usual cell: no number holds '±' or "+-" (a sign is never followed
  // by another), so a token that parses as one has no spread.
  if (const std::optional<double> mean = ParseNumber(token)) return Cell{*mean, 0.0};
  const size_t split = FindSpread(token);
  if (split == absl::string_view::npos) return std::nullopt;
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

// One of kWhitespace.
bool IsSeparator(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

}  // namespace

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

absl::Status RowParser::Parse(absl::string_view trimmed, int64_t line_number) {
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
          absl::StrCat(Where(body_.filename, line_number), "column ", a + 2, " (agent ", agents[a],
                       "): cannot parse score '", tokens_[a + 1], "'"));
    }
    means_[a] = cell->mean;
    stds_[a] = cell->std;
  }
  return absl::OkStatus();
}

size_t RowsToReserve(absl::string_view text, size_t num_agents) {
  return std::min(CountLines(text), text.size() / (2 * (num_agents + 1)) + 1);
}

size_t CountRows(absl::string_view part) {
  size_t rows = 0;
  size_t start = 0;
  while (start <= part.size()) rows += IsDataLine(Trimmed(NextLine(part, &start))) ? 1 : 0;
  return rows;
}

void Ranks(absl::Span<const double> scores, uint32_t* ranks, AgentId* best_first,
           RankScratch& scratch) {
  const size_t k = scores.size();
  // Few agents: count directly; below about 32 the k^2 comparisons beat sorting.
  constexpr size_t kCountUpTo = 32;
  if (k <= kCountUpTo) {
    for (size_t i = 0; i < k; ++i) {
      uint32_t higher = 0;
      for (double other : scores) higher += other > scores[i] ? 1 : 0;
      ranks[i] = higher + 1;
      if (best_first == nullptr) continue;
      // Best first, column i comes after the higher scores and the equal ones left of it.
      uint32_t equal_before = 0;
      for (size_t j = 0; j < i; ++j) equal_before += scores[j] == scores[i] ? 1 : 0;
      best_first[higher + equal_before] = static_cast<AgentId>(i);
    }
    return;
  }
  // Many: the columns from the highest score down, equal ones in column order. Sorting
  // plain integers is some twice as fast as sorting (score, column) pairs: each column gets
  // a key that orders its score from the highest down (-0.0 as 0.0, so that they tie), with
  // its last bits replaced by the column. Scores that differ only in those bits may then be
  // out of order; the insertion sort after it puts them right, in one pass when none are.
  if (best_first == nullptr) scratch.order.resize(k);
  AgentId* const order = best_first != nullptr ? best_first : scratch.order.data();
  const int column_bits = static_cast<int>(std::bit_width(k - 1));
  const uint64_t column_mask = (uint64_t{1} << column_bits) - 1;
  scratch.keys.resize(k);
  for (size_t i = 0; i < k; ++i) {
    const uint64_t bits = std::bit_cast<uint64_t>(scores[i] + 0.0);  // -0.0 + 0.0 is 0.0
    // Unsigned order of `ascending` is the order of the scores; its complement, descending.
    const uint64_t ascending = (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
    scratch.keys[i] = (~ascending & ~column_mask) | i;
  }
  std::sort(scratch.keys.begin(), scratch.keys.end());
  auto before = [&](AgentId a, AgentId b) {
    return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
  };
  for (size_t p = 0; p < k; ++p) {
    const AgentId column = static_cast<AgentId>(scratch.keys[p] & column_mask);
    size_t q = p;
    for (; q > 0 && before(column, order[q - 1]); --q) order[q] = order[q - 1];
    order[q] = column;
  }
  // The first of a run of equal scores is preceded by exactly the higher ones, and the run
  // shares its rank.
  uint32_t rank = 1;
  for (size_t p = 0; p < k; ++p) {
    if (p > 0 && scores[order[p]] != scores[order[p - 1]]) rank = static_cast<uint32_t>(p + 1);
    ranks[order[p]] = rank;
  }
}

}  // namespace ratings::io::scores
