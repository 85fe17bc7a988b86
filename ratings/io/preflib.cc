#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "ratings/io/read_results.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

// A count expands to that many records; a larger one is taken for corrupt input rather
// than an attempt to allocate without bound.
constexpr int64_t kMaxCount = 100'000'000;
// The same bound on the records of a whole file.
constexpr int64_t kMaxRecords = 100'000'000;

// Numbers longer than this are out of every range we accept, and fit in int64 below it.
constexpr size_t kMaxDigits = 18;

bool IsDigits(absl::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Digits only, no sign or space; nullopt when not that or too long for int64.
std::optional<int64_t> ParseDigits(absl::string_view s) {
  if (!IsDigits(s) || s.size() > kMaxDigits) return std::nullopt;
  int64_t value = 0;
  for (char c : s) value = value * 10 + (c - '0');
  return value;
}

std::string Quote(absl::string_view s) { return absl::StrCat("'", absl::CHexEscape(s), "'"); }

struct Ranked {
  int64_t alternative;  // 1..n
  uint32_t rank;        // 1 = first indifference class
};

// Parses the order of a data line ("a,b,{c,d},e") over alternatives 1..n. Not
// thread-safe; kept across lines so its scratch space is allocated once.
class OrderParser {
 public:
  explicit OrderParser(int64_t n) : n_(n), seen_(static_cast<size_t>(n) + 1, false) {}

  // `column` is the 1-based column of `order` within its line, for messages.
  absl::StatusOr<std::vector<Ranked>> Parse(absl::string_view order, size_t column) {
    text_ = order;
    column_ = column;
    pos_ = 0;
    std::vector<Ranked> ranked;
    absl::Status status = ParseInto(ranked);
    for (const Ranked& r : ranked) seen_[r.alternative] = false;
    if (!status.ok()) return status;
    return ranked;
  }

 private:
  absl::Status ParseInto(std::vector<Ranked>& ranked) {
    SkipSpaces();
    if (AtEnd()) return absl::OkStatus();  // ranks nothing
    uint32_t rank = 0;
    while (true) {
      SkipSpaces();
      ++rank;
      if (!AtEnd() && text_[pos_] == '{') {
        ++pos_;
        SkipSpaces();
        if (!AtEnd() && text_[pos_] == '}') return Error("empty braces '{}'");
        while (true) {
          SkipSpaces();
          RETURN_IF_ERROR(ParseAlternative(rank, /*in_braces=*/true, ranked));
          SkipSpaces();
          if (AtEnd()) return Error("unbalanced braces: '{' without '}'");
          const char c = text_[pos_++];
          if (c == '}') break;
          if (c != ',') return Unexpected("',' or '}'", pos_ - 1);
        }
      } else {
        RETURN_IF_ERROR(ParseAlternative(rank, /*in_braces=*/false, ranked));
      }
      SkipSpaces();
      if (AtEnd()) return absl::OkStatus();
      if (text_[pos_] == '}') return Error("unbalanced braces: '}' without '{'");
      if (text_[pos_] != ',') return Unexpected("','", pos_);
      ++pos_;
    }
  }

  absl::Status ParseAlternative(uint32_t rank, bool in_braces, std::vector<Ranked>& ranked) {
    const size_t start = pos_;
    while (!AtEnd() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    const absl::string_view digits = text_.substr(start, pos_ - start);
    if (digits.empty()) {
      if (AtEnd()) return Error("expected an alternative number at the end of the line");
      if (in_braces && text_[start] == '{') return Error("nested braces");
      if (!in_braces && text_[start] == '}') {
        return Error("unbalanced braces: '}' without '{'");
      }
      return Unexpected("an alternative number", start);
    }
    const std::optional<int64_t> value = ParseDigits(digits);
    if (!value.has_value() || *value < 1 || *value > n_) {
      return Error(absl::StrCat("alternative ", digits, " out of range 1..", n_));
    }
    if (seen_[*value]) return Error(absl::StrCat("alternative ", *value, " appears twice"));
    seen_[*value] = true;
    ranked.push_back({*value, rank});
    return absl::OkStatus();
  }

  void SkipSpaces() {
    while (!AtEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }

  absl::Status Error(absl::string_view problem) const {
    return absl::InvalidArgumentError(problem);
  }
  absl::Status Unexpected(absl::string_view expected, size_t at) const {
    return absl::InvalidArgumentError(absl::StrCat("expected ", expected, " at column ",
                                                   column_ + at, ", found ",
                                                   Quote(text_.substr(at, 1))));
  }

  const int64_t n_;
  std::vector<bool> seen_;  // indexed by alternative; all false between lines
  absl::string_view text_;
  size_t column_ = 1;
  size_t pos_ = 0;
};

// What the `#` lines declare.
struct Header {
  std::optional<int64_t> num_alternatives;
  int64_t num_alternatives_line = 0;
  struct Name {
    std::string text;
    int64_t line;
  };
  absl::flat_hash_map<int64_t, Name> names;  // by alternative number
};

// Records one `# KEY: value` line; other keys and lines without ':' are ignored.
absl::Status ParseHeaderLine(absl::string_view body, int64_t line_number, Header& header) {
  const size_t colon = body.find(':');
  if (colon == absl::string_view::npos) return absl::OkStatus();
  const absl::string_view key = absl::StripAsciiWhitespace(body.substr(0, colon));
  const absl::string_view value = absl::StripAsciiWhitespace(body.substr(colon + 1));
  if (key == "NUMBER ALTERNATIVES") {
    if (header.num_alternatives.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("repeated '# NUMBER ALTERNATIVES' header (first on line ",
                       header.num_alternatives_line, ")"));
    }
    const std::optional<int64_t> n = ParseDigits(value);
    if (!n.has_value() || *n < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("NUMBER ALTERNATIVES ", Quote(value), " is not a positive integer"));
    }
    header.num_alternatives = *n;
    header.num_alternatives_line = line_number;
    return absl::OkStatus();
  }
  constexpr absl::string_view kNamePrefix = "ALTERNATIVE NAME";
  if (absl::StartsWith(key, kNamePrefix)) {
    const absl::string_view index_text = absl::StripAsciiWhitespace(key.substr(kNamePrefix.size()));
    const std::optional<int64_t> index = ParseDigits(index_text);
    if (!index.has_value() || *index < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad alternative number ", Quote(index_text), " in ", Quote(key)));
    }
    auto [it, inserted] =
        header.names.try_emplace(*index, Header::Name{std::string(value), line_number});
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat("repeated '# ALTERNATIVE NAME ", *index,
                                                     "' header (first on line ", it->second.line,
                                                     ")"));
    }
  }
  return absl::OkStatus();
}

// Checks that the header declares N and names 1..N, and returns the agent ids.
absl::StatusOr<std::vector<std::string>> AgentIds(const Header& header, absl::string_view where,
                                                  const ResultLimits& limits) {
  if (!header.num_alternatives.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "no '# NUMBER ALTERNATIVES: N' header before the data lines"));
  }
  const int64_t n = *header.num_alternatives;
  for (const auto& [index, name] : header.names) {
    if (index > n) {
      return absl::InvalidArgumentError(absl::StrCat(where, "'# ALTERNATIVE NAME ", index,
                                                     "' (line ", name.line,
                                                     ") exceeds NUMBER ALTERNATIVES ", n));
    }
  }
  // Every index is in 1..n, so when some are missing one is found within size()+1 steps.
  if (static_cast<int64_t>(header.names.size()) < n) {
    for (int64_t i = 1; i <= n; ++i) {
      if (!header.names.contains(i)) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, "missing '# ALTERNATIVE NAME ", i, "' header (NUMBER ALTERNATIVES is ", n, ")"));
      }
    }
  }
  std::vector<std::string> ids;
  ids.reserve(n);
  absl::flat_hash_set<absl::string_view> distinct;
  bool use_numbers = false;
  for (int64_t i = 1; i <= n; ++i) {
    const std::string& name = header.names.at(i).text;
    if (name.empty() || name.size() > limits.max_agent_id_bytes || !distinct.insert(name).second) {
      use_numbers = true;
      break;
    }
  }
  for (int64_t i = 1; i <= n; ++i) {
    ids.push_back(use_numbers ? absl::StrCat(i) : header.names.at(i).text);
  }
  return ids;
}

std::string Where(absl::string_view filename, int64_t line_number) {
  return absl::StrCat(filename, ":", line_number, ": ");
}

absl::Status WithWhere(const absl::Status& status, absl::string_view where) {
  return absl::Status(status.code(), absl::StrCat(where, status.message()));
}

}  // namespace

absl::StatusOr<ReadOutput> ParsePreflib(std::string_view content_view,
                                        std::string_view filename_view,
                                        const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());
  ReadOutput output;
  Header header;
  std::vector<std::string> agents;  // set at the first data line
  std::optional<OrderParser> parser;
  int64_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(line);
    if (absl::StripTrailingAsciiWhitespace(trimmed).empty()) continue;
    const std::string where = Where(filename, line_number);
    if (trimmed.front() == '#') {
      if (parser.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, "'#' header line after the first data line"));
      }
      absl::Status status = ParseHeaderLine(trimmed.substr(1), line_number, header);
      if (!status.ok()) return WithWhere(status, where);
      continue;
    }
    if (!parser.has_value()) {
      ASSIGN_OR_RETURN(agents, AgentIds(header, where, limits));
      parser.emplace(static_cast<int64_t>(agents.size()));
    }

    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "expected 'count: order', found no ':'"));
    }
    const absl::string_view count_text = absl::StripAsciiWhitespace(line.substr(0, colon));
    if (!IsDigits(count_text)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "count ", Quote(count_text), " is not a non-negative integer"));
    }
    const std::optional<int64_t> count = ParseDigits(count_text);
    if (!count.has_value() || *count > kMaxCount) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, "count ", count_text, " exceeds the limit of ", kMaxCount, " votes per line"));
    }
    absl::StatusOr<std::vector<Ranked>> ranked =
        parser->Parse(line.substr(colon + 1), /*column=*/colon + 2);
    if (!ranked.ok()) return WithWhere(ranked.status(), where);

    // A vote ranking fewer than two alternatives orders no pair: not a result.
    if (*count == 0 || ranked->size() < 2) {
      output.skipped_votes += *count;
      continue;
    }
    ResultRecord record;
    record.line = line_number;
    record.result.standings.reserve(ranked->size());
    for (const Ranked& r : *ranked) {
      record.result.standings.push_back(Standing{agents[r.alternative - 1], r.rank, std::nullopt});
    }
    absl::Status valid = ValidateResult(record.result, limits);
    if (!valid.ok()) return WithWhere(valid, where);
    if (static_cast<int64_t>(output.records.size()) + *count > kMaxRecords) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "more than ", kMaxRecords, " results in the file"));
    }
    for (int64_t i = 1; i < *count; ++i) output.records.push_back(record);
    output.records.push_back(std::move(record));
  }
  if (!parser.has_value()) {
    // No data lines: an empty election, but the header must still be complete.
    RETURN_IF_ERROR(AgentIds(header, absl::StrCat(filename, ": "), limits).status());
  }
  return output;
}

}  // namespace ratings::io
