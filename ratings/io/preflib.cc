#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <future>
#include <iterator>
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
#include "absl/strings/string_view.h"
#include "ratings/io/parallel_lines.h"
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
// thread-safe (one per thread); kept across lines so its scratch space is allocated once.
class OrderParser {
 public:
  explicit OrderParser(int64_t n) : n_(n), seen_(static_cast<size_t>(n) + 1, false) {}

  // Replaces `ranked` by the alternatives of `order` (its capacity is kept from line to
  // line). `column` is the 1-based column of `order` within its line, for messages.
  absl::Status Parse(absl::string_view order, size_t column, std::vector<Ranked>& ranked) {
    text_ = order;
    column_ = column;
    pos_ = 0;
    ranked.clear();
    absl::Status status = ParseInto(ranked);
    for (const Ranked& r : ranked) seen_[r.alternative] = false;
    return status;
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

// What reading the data lines needs, fixed by the header and shared by both threads.
struct Election {
  absl::string_view filename;
  const ResultLimits* limits = nullptr;
  std::vector<std::string> agents;  // agents[a - 1] is alternative a's id
  // Every id is non-empty and within limits->max_agent_id_bytes. The ids are distinct, and
  // a vote's alternatives are distinct with ranks from 1, so a vote of 2..max_standings
  // alternatives then passes ValidateResult without it being run.
  bool ids_valid = false;
};

// A vote as the second half keeps it until it is moved after the first half's records:
// the part of a ResultRecord PrefLib sets, a quarter of its size.
struct Vote {
  std::vector<Standing> standings;
  int64_t line = 0;
};

std::vector<Standing>& StandingsOf(ResultRecord& record) { return record.result.standings; }
std::vector<Standing>& StandingsOf(Vote& vote) { return vote.standings; }
void SetLine(ResultRecord& record, int64_t line) { record.line = line; }
void SetLine(Vote& vote, int64_t line) { vote.line = line; }
absl::Status Validate(const ResultRecord& record, const ResultLimits& limits) {
  return ValidateResult(record.result, limits);
}
absl::Status Validate(Vote& vote, const ResultLimits& limits) {
  Result result;
  result.standings = std::move(vote.standings);
  absl::Status status = ValidateResult(result, limits);
  vote.standings = std::move(result.standings);
  return status;
}

// Reads the data lines of `part`, whose first line is line `first_line` of the file, and
// appends their votes to `votes` (ResultRecord or Vote) in file order, and to
// `skipped_votes` those of lines that rank fewer than two alternatives; `records_before` is
// how many records the file has before `part` (for kMaxRecords). Stops at the first error,
// which has the same message as when the whole file is read line by line.
template <typename Item>
absl::Status ParseVoteLines(absl::string_view part, int64_t first_line, int64_t records_before,
                            const Election& election, std::vector<Item>& votes,
                            int64_t& skipped_votes) {
  const ResultLimits& limits = *election.limits;
  OrderParser parser(static_cast<int64_t>(election.agents.size()));
  std::vector<Ranked> ranked;
  int64_t line_number = first_line - 1;
  size_t start = 0;
  while (start <= part.size()) {
    absl::string_view line = NextLine(part, &start);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // Leading whitespace stripped, so empty exactly when the line is blank.
    const absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(line);
    if (trimmed.empty()) continue;
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
      return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number),
                                                     "count ", Quote(count_text),
                                                     " is not a non-negative integer"));
    }
    const std::optional<int64_t> count = ParseDigits(count_text);
    if (!count.has_value() || *count > kMaxCount) {
      return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number),
                                                     "count ", count_text, " exceeds the limit of ",
                                                     kMaxCount, " votes per line"));
    }
    if (absl::Status status = parser.Parse(line.substr(colon + 1), /*column=*/colon + 2, ranked);
        !status.ok()) {
      return WithWhere(status, Where(election.filename, line_number));
    }

    // A vote ranking fewer than two alternatives orders no pair: not a result.
    if (*count == 0 || ranked.size() < 2) {
      skipped_votes += *count;
      continue;
    }
    // The vote is built in place, its ids copied from the file's; the checks that follow
    // are those of the line-by-line reading, in its order, and drop it on failure.
    const int64_t records = records_before + static_cast<int64_t>(votes.size());
    Item& vote = votes.emplace_back();
    SetLine(vote, line_number);
    std::vector<Standing>& standings = StandingsOf(vote);
    standings.resize(ranked.size());
    for (size_t i = 0; i < ranked.size(); ++i) {
      standings[i].agent = election.agents[ranked[i].alternative - 1];
      standings[i].rank = ranked[i].rank;
    }
    if (!election.ids_valid || ranked.size() > limits.max_standings) {
      if (absl::Status valid = Validate(vote, limits); !valid.ok()) {
        votes.pop_back();
        return WithWhere(valid, Where(election.filename, line_number));
      }
    }
    if (records + *count > kMaxRecords) {
      votes.pop_back();
      return absl::InvalidArgumentError(absl::StrCat(Where(election.filename, line_number),
                                                     "more than ", kMaxRecords,
                                                     " results in the file"));
    }
    // The other count - 1 voters: room first (growing geometrically), so that the vote
    // copied from stays where it is.
    if (*count > 1) {
      const size_t needed = votes.size() + static_cast<size_t>(*count - 1);
      if (needed > votes.capacity()) votes.reserve(std::max(needed, 2 * votes.capacity()));
      const Item& copied = votes.back();
      for (int64_t i = 1; i < *count; ++i) votes.push_back(copied);
    }
  }
  return absl::OkStatus();
}

// Records to reserve for the data lines of `text`: for each line with a ',' after its ':'
// (a vote that may rank two alternatives or more), its count; exact for a valid file. At
// most four a line, so that a few huge counts (or corrupt ones) reserve nothing out of
// proportion to the file; beyond that the records grow as they come.
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

}  // namespace

absl::StatusOr<ReadOutput> ParsePreflib(std::string_view content_view,
                                        std::string_view filename_view,
                                        const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());

  // The header, up to the first data line.
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
    return ReadOutput();
  }

  Election election;
  election.filename = filename;
  election.limits = &limits;
  ASSIGN_OR_RETURN(election.agents, AgentIds(header, Where(filename, line_number), limits));
  election.ids_valid = std::all_of(
      election.agents.begin(), election.agents.end(),
      [&](const std::string& id) { return !id.empty() && id.size() <= limits.max_agent_id_bytes; });

  // The data lines, from the first on: in two halves on two threads when long enough
  // (parallel_lines.h). Each line's records depend only on the line and the header, except
  // for the bound on the file's records, which the second half cannot know while the first
  // is read; see below.
  const absl::string_view body = content.substr(*body_start);
  const int64_t body_line = line_number;
  ReadOutput head;
  const std::optional<LineHalves> halves = SplitLines(body, body_line);
  if (!halves.has_value()) {
    head.records.reserve(RecordsToReserve(body));
    RETURN_IF_ERROR(ParseVoteLines(body, body_line, 0, election, head.records, head.skipped_votes));
    return head;
  }
  // Room for the whole file in the first half's records, so that the second half's are
  // moved in after them without moving the first half's again: each thread counts its own
  // half's records, and the first waits for the second's count before reserving.
  std::promise<size_t> tail_estimate;
  // The second half keeps its votes as Votes, not records: they are moved into records
  // after the first half's in any case, and the smaller Votes are less memory to touch.
  std::vector<Vote> tail;
  int64_t tail_skipped = 0;
  absl::Status head_status;
  absl::Status tail_status;
  size_t head_records = 0;
  RunOnTwoThreads(
      [&] {
        const size_t own = RecordsToReserve(halves->first);
        const size_t expected_tail = tail_estimate.get_future().get();
        head.records.reserve(own + expected_tail);
        head_status =
            ParseVoteLines(halves->first, body_line, 0, election, head.records, head.skipped_votes);
        head_records = head.records.size();
        // Most of moving the second half's votes in is the first touch of the memory they
        // move to. Default records put there now, while the second half may still be read,
        // make that memory ready; the moves then assign to them.
        if (head_status.ok()) head.records.resize(head_records + expected_tail);
      },
      [&] {
        const size_t own = RecordsToReserve(halves->second);
        tail_estimate.set_value(own);
        tail.reserve(own);
        tail_status = ParseVoteLines(halves->second, halves->second_first_line, 0, election, tail,
                                     tail_skipped);
      });
  // An error in the first half comes first in the file.
  if (!head_status.ok()) return head_status;
  // The second half was read as if the file started there. While the first half's records
  // and those the second read (up to its end or its error) stay within kMaxRecords, the
  // bound is crossed nowhere before where the second half stopped, and where it stopped on
  // the bound it is crossed there too: the outcome is the file's. Otherwise the second
  // half is read again, counting the first half's records.
  if (static_cast<int64_t>(head_records + tail.size()) > kMaxRecords) {
    tail.clear();
    tail_skipped = 0;
    tail_status = ParseVoteLines(halves->second, halves->second_first_line,
                                 static_cast<int64_t>(head_records), election, tail, tail_skipped);
  }
  if (!tail_status.ok()) return tail_status;
  // The second half's votes into the default records after the first half's, or after
  // them where there are too few; then the defaults left over dropped.
  std::vector<ResultRecord>& records = head.records;
  for (size_t i = 0; i < tail.size(); ++i) {
    const size_t at = head_records + i;
    ResultRecord& record = at < records.size() ? records[at] : records.emplace_back();
    record.result.standings = std::move(tail[i].standings);
    record.line = tail[i].line;
  }
  records.erase(records.begin() + static_cast<std::ptrdiff_t>(head_records + tail.size()),
                records.end());
  head.skipped_votes += tail_skipped;
  return head;
}

}  // namespace ratings::io
