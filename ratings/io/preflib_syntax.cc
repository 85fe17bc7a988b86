#include "ratings/io/preflib_syntax.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ratings/status_macros.h"

namespace ratings::io::preflib {
namespace {

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

// The digits at `p` (before `end`) as ParseDigits reads them, with `p` moved past them; 0,
// which is no alternative, when there are none or more than kMaxDigits (the value then
// wraps around, harmlessly, as it is unsigned).
uint64_t TakeNumber(const char*& p, const char* end) {
  const char* const start = p;
  uint64_t value = 0;
  for (; p != end && absl::ascii_isdigit(static_cast<unsigned char>(*p)); ++p) {
    value = value * 10 + static_cast<uint64_t>(*p - '0');
  }
  return static_cast<size_t>(p - start) <= kMaxDigits ? value : 0;
}

std::string Quote(absl::string_view s) { return absl::StrCat("'", absl::CHexEscape(s), "'"); }

std::string Where(absl::string_view filename, int64_t line_number) {
  return absl::StrCat(filename, ":", line_number, ": ");
}

absl::Status WithWhere(const absl::Status& status, absl::string_view where) {
  return absl::Status(status.code(), absl::StrCat(where, status.message()));
}

// The line of `text` that starts at `*start`, without its '\n'; moves `*start` past it.
// Called while *start <= text.size(), it yields what absl::StrSplit(text, '\n') yields: a
// last, possibly empty, line after the last '\n'. It calls memchr directly: Debian's Abseil
// has its own string_view, not std's, whose find is a call out of line to the same memchr,
// one more call per line.
absl::string_view NextLine(absl::string_view text, size_t* start) {
  const char* const begin = text.data() + *start;
  const size_t rest = text.size() - *start;
  // memchr needs a valid pointer even for no bytes, and an empty text's may be null.
  const void* const newline = rest == 0 ? nullptr : std::memchr(begin, '\n', rest);
  const size_t length =
      newline == nullptr ? rest : static_cast<size_t>(static_cast<const char*>(newline) - begin);
  *start += length + 1;
  return absl::string_view(begin, length);
}

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
  // Of the names past n, the first in the file (not the first in the map's order, which
  // varies between runs).
  std::optional<std::pair<int64_t, int64_t>> past;  // (line, index)
  for (const auto& [index, name] : header.names) {
    if (index > n && (!past.has_value() || name.line < past->first)) past = {name.line, index};
  }
  if (past.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(where, "'# ALTERNATIVE NAME ", past->second,
                                                   "' (line ", past->first,
                                                   ") exceeds NUMBER ALTERNATIVES ", n));
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

}  // namespace

absl::StatusOr<std::optional<Body>> ReadHeader(absl::string_view content,
                                               absl::string_view filename,
                                               const ResultLimits& limits) {
  Header header;
  int64_t line_number = 0;
  size_t start = 0;
  std::optional<size_t> body_start;  // offset of the first data line
  while (start <= content.size()) {
    const size_t line_start = start;
    absl::string_view line = NextLine(content, &start);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(line);
    if (trimmed.empty()) continue;
    if (trimmed.front() != '#') {
      body_start = line_start;
      break;
    }
    absl::Status status = ParseHeaderLine(trimmed.substr(1), line_number, header);
    if (!status.ok()) return WithWhere(status, Where(filename, line_number));
  }
  if (!body_start.has_value()) {
    // No data lines: an empty election, but the header must still be complete.
    RETURN_IF_ERROR(AgentIds(header, absl::StrCat(filename, ": "), limits).status());
    return std::optional<Body>();
  }
  Body body;
  body.election.filename = filename;
  body.election.limits = &limits;
  ASSIGN_OR_RETURN(body.election.agents, AgentIds(header, Where(filename, line_number), limits));
  body.election.ids_valid = IdsValid(body.election.agents, limits);
  body.text = content.substr(*body_start);
  body.first_line = line_number;
  return std::optional<Body>(std::move(body));
}

absl::Status OrderParser::Parse(absl::string_view order, size_t column,
                                std::vector<Ranked>& ranked) {
  text_ = order;
  column_ = column;
  pos_ = 0;
  ranked.clear();
  absl::Status status = ParseInto(ranked);
  for (const Ranked& r : ranked) seen_[r.alternative] = false;
  return status;
}

absl::Status OrderParser::ParseInto(std::vector<Ranked>& ranked) {
  SkipSpaces();
  if (AtEnd()) return absl::OkStatus();  // ranks nothing
  uint32_t rank = 0;
  while (true) {
    SkipSpaces();
    ++rank;
    if (!AtEnd() && text_[pos_] == '{') {
      ++pos_;
      SkipSpaces();
      if (!AtEnd() && text_[pos_] == '}') return absl::InvalidArgumentError("empty braces '{}'");
      while (true) {
        SkipSpaces();
        RETURN_IF_ERROR(ParseAlternative(rank, /*in_braces=*/true, ranked));
        SkipSpaces();
        if (AtEnd()) return absl::InvalidArgumentError("unbalanced braces: '{' without '}'");
        const char c = text_[pos_++];
        if (c == '}') break;
        if (c != ',') return Unexpected("',' or '}'", pos_ - 1);
      }
    } else {
      RETURN_IF_ERROR(ParseAlternative(rank, /*in_braces=*/false, ranked));
    }
    SkipSpaces();
    if (AtEnd()) return absl::OkStatus();
    if (text_[pos_] == '}') return absl::InvalidArgumentError("unbalanced braces: '}' without '{'");
    if (text_[pos_] != ',') return Unexpected("','", pos_);
    ++pos_;
  }
}

absl::Status OrderParser::ParseAlternative(uint32_t rank, bool in_braces,
                                           std::vector<Ranked>& ranked) {
  const size_t start = pos_;
  while (!AtEnd() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  const absl::string_view digits = text_.substr(start, pos_ - start);
  if (digits.empty()) {
    if (AtEnd()) {
      return absl::InvalidArgumentError("expected an alternative number at the end of the line");
    }
    if (in_braces && text_[start] == '{') return absl::InvalidArgumentError("nested braces");
    if (!in_braces && text_[start] == '}') {
      return absl::InvalidArgumentError("unbalanced braces: '}' without '{'");
    }
    return Unexpected("an alternative number", start);
  }
  const std::optional<int64_t> value = ParseDigits(digits);
  if (!value.has_value() || *value < 1 || *value > n_) {
    return absl::InvalidArgumentError(
        absl::StrCat("alternative ", digits, " out of range 1..", n_));
  }
  if (seen_[*value]) {
    return absl::InvalidArgumentError(absl::StrCat("alternative ", *value, " appears twice"));
  }
  seen_[*value] = true;
  ranked.push_back({*value, rank});
  return absl::OkStatus();
}

std::optional<int64_t> OrderParser::ParseCanonicalLine(absl::string_view line,
                                                       std::vector<Ranked>& ranked) {
  // One pass over the line by pointer, with no status to build: anything unexpected gives
  // up at once, before `ranked` is touched when the count is not valid, and the general
  // path finds the line's result (and its message) on its own.
  const char* p = line.data();
  const char* end = p + line.size();
  if (p != end && end[-1] == '\r') --end;  // as ParseDataLineGeneral: one '\r' at most
  // The count: digits up to the first ':', which is where ParseDataLineGeneral splits the
  // line. Nine digits at most, so that the value fits whatever they are; leading zeros
  // read as ParseDigits reads them.
  constexpr std::ptrdiff_t kMaxCountDigits = 9;
  const char* const count_start = p;
  int64_t count = 0;
  for (; p != end && absl::ascii_isdigit(static_cast<unsigned char>(*p)); ++p) {
    if (p - count_start == kMaxCountDigits) return std::nullopt;
    count = count * 10 + (*p - '0');
  }
  if (p == count_start || p == end || *p != ':' || count > kMaxCount) return std::nullopt;
  ++p;
  while (p != end && *p == ' ') ++p;
  if (p == end) return std::nullopt;  // ranks nothing
  ranked.clear();
  NextGeneration();
  // The next alternative, of indifference class `rank`: false when there is none, it is
  // out of range, or it is in the line already.
  const auto take = [&](uint32_t rank) {
    const uint64_t value = TakeNumber(p, end);
    if (value == 0 || value > static_cast<uint64_t>(n_)) return false;
    uint32_t& stamp = stamps_[value];
    if (stamp == generation_) return false;
    stamp = generation_;
    ranked.push_back({static_cast<int64_t>(value), rank});
    return true;
  };
  // Ranks as ParseInto does: one more per item, one for all of a '{...}' group.
  for (uint32_t rank = 1;; ++rank) {
    if (p != end && *p == '{') {
      ++p;
      while (true) {
        if (!take(rank) || p == end) return std::nullopt;
        const char c = *p++;
        if (c == '}') break;
        if (c != ',') return std::nullopt;
      }
    } else if (!take(rank)) {
      return std::nullopt;
    }
    if (p == end) return count;
    if (*p != ',') return std::nullopt;
    ++p;
  }
}

void OrderParser::NextGeneration() {
  if (++generation_ == 0) {
    // Wrapped around: a stamp left 2^32 lines ago would match again.
    std::fill(stamps_.begin(), stamps_.end(), 0);
    generation_ = 1;
  }
}

void OrderParser::SkipSpaces() {
  while (!AtEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
}

absl::Status OrderParser::Unexpected(absl::string_view expected, size_t at) const {
  return absl::InvalidArgumentError(absl::StrCat("expected ", expected, " at column ", column_ + at,
                                                 ", found ", Quote(text_.substr(at, 1))));
}

bool DataLines::Next() {
  if (start_ > part_.size()) return false;
  text_ = NextLine(part_, &start_);
  ++number_;
  return true;
}

absl::StatusOr<std::optional<int64_t>> ParseDataLine(absl::string_view line, int64_t line_number,
                                                     const Election& election, OrderParser& parser,
                                                     std::vector<Ranked>& ranked) {
  if (const std::optional<int64_t> count = parser.ParseCanonicalLine(line, ranked)) return count;
  return ParseDataLineGeneral(line, line_number, election, parser, ranked);
}

absl::StatusOr<std::optional<int64_t>> ParseDataLineGeneral(absl::string_view line,
                                                            int64_t line_number,
                                                            const Election& election,
                                                            OrderParser& parser,
                                                            std::vector<Ranked>& ranked) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Leading whitespace stripped, so empty exactly when the line is blank.
  const absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(line);
  if (trimmed.empty()) return std::optional<int64_t>();
  if (trimmed.front() == '#') {
    return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number),
                                                   "'#' header line after the first data line"));
  }
  const size_t colon = line.find(':');
  if (colon == absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number),
                                                   "expected 'count: order', found no ':'"));
  }
  const absl::string_view count_text = absl::StripAsciiWhitespace(line.substr(0, colon));
  if (!IsDigits(count_text)) {
    return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number), "count ",
                                                   Quote(count_text),
                                                   " is not a non-negative integer"));
  }
  const std::optional<int64_t> count = ParseDigits(count_text);
  if (!count.has_value() || *count > kMaxCount) {
    return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number), "count ",
                                                   count_text, " exceeds the limit of ", kMaxCount,
                                                   " votes per line"));
  }
  if (absl::Status status = parser.Parse(line.substr(colon + 1), /*column=*/colon + 2, ranked);
      !status.ok()) {
    return WithWhere(status, Where(election.filename, line_number));
  }
  return count;
}

bool IdsValid(const std::vector<std::string>& ids, const ResultLimits& limits) {
  return std::all_of(ids.begin(), ids.end(), [&](const std::string& id) {
    return !id.empty() && id.size() <= limits.max_agent_id_bytes;
  });
}

absl::Status CheckVote(const std::vector<Ranked>& ranked, int64_t line_number,
                       const Election& election, const ResultLimits& limits, bool ids_valid) {
  if (ids_valid && ranked.size() <= limits.max_standings) return absl::OkStatus();
  Result result;
  result.standings.resize(ranked.size());
  for (size_t i = 0; i < ranked.size(); ++i) {
    result.standings[i].agent = election.agents[ranked[i].alternative - 1];
    result.standings[i].rank = ranked[i].rank;
  }
  if (absl::Status valid = ValidateResult(result, limits); !valid.ok()) {
    return WithWhere(valid, Where(election.filename, line_number));
  }
  return absl::OkStatus();
}

absl::Status TooManyRecords(absl::string_view filename, int64_t line_number) {
  return absl::InvalidArgumentError(absl::StrCat(Where(filename, line_number), "more than ",
                                                 kMaxRecords, " results in the file"));
}

size_t RecordsToReserve(absl::string_view text) {
  size_t records = 0;
  size_t lines = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const absl::string_view line = NextLine(text, &start);
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    ++lines;
    if (line.find(',', colon + 1) == absl::string_view::npos) continue;
    size_t count = 0;
    for (char c : line.substr(0, colon)) {
      if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
        count = std::min<size_t>(count * 10 + static_cast<size_t>(c - '0'), kMaxCount);
      }
    }
    records += count;
  }
  return std::min(records, 4 * lines);
}

}  // namespace ratings::io::preflib
