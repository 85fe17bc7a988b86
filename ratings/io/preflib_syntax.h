// The PrefLib syntax (tests/data/preflib/README.md) shared by its two readers: ParsePreflib
// (read_results.h: one record per voter, preflib.cc) and ParsePreflibVotes (preflib_votes.h:
// straight to a vote set, preflib_votes.cc). Both read the header and every data line
// through these functions, so that they accept the same files and report the same errors
// with the same messages; only what they build from a valid vote differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ratings/result.h"

namespace ratings::io::preflib {

// A count expands to that many votes; a larger one is taken for corrupt input rather than
// an attempt to allocate without bound.
inline constexpr int64_t kMaxCount = 100'000'000;
// The same bound on the votes (records) of a whole file.
inline constexpr int64_t kMaxRecords = 100'000'000;

// One alternative of a data line and its indifference class.
struct Ranked {
  int64_t alternative;  // 1..n
  uint32_t rank;        // 1 = first indifference class
};

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

// The header of a file, read, and where its data lines start.
struct Body {
  Election election;
  absl::string_view text;  // from the first data line to the end of the file
  int64_t first_line = 0;  // the 1-based line `text` starts on
};

// Reads the `#` lines up to the first data line and checks them (NUMBER ALTERNATIVES, an
// ALTERNATIVE NAME for each of 1..N). nullopt when the file has no data line.
absl::StatusOr<std::optional<Body>> ReadHeader(absl::string_view content,
                                               absl::string_view filename,
                                               const ResultLimits& limits);

// Parses the order of a data line ("a,b,{c,d},e") over alternatives 1..n. Not
// thread-safe (one per thread); kept across lines so its scratch space is allocated once.
class OrderParser {
 public:
  explicit OrderParser(int64_t n)
      : n_(n), seen_(static_cast<size_t>(n) + 1, false), stamps_(static_cast<size_t>(n) + 1, 0) {}

  // Replaces `ranked` by the alternatives of `order` (its capacity is kept from line to
  // line). `column` is the 1-based column of `order` within its line, for messages.
  absl::Status Parse(absl::string_view order, size_t column, std::vector<Ranked>& ranked);

  // The fast path of ParseDataLine, for the lines data files are made of: a whole data
  // line (without its '\n') in canonical form, `COUNT:` (1 to 9 digits, at most kMaxCount),
  // optional spaces, then one or more items separated by single ',', each an alternative
  // number in 1..n (at most 18 digits) or '{' such numbers separated by ',' '}', all
  // alternatives distinct, and an optional single '\r' at the end; nothing else. Returns
  // the count, with the line's alternatives in `ranked`, exactly as ParseDataLineGeneral
  // gives them. Any other line, valid or not (blank, a space or tab within the order, an
  // empty order, any error), gives nullopt, and `ranked` is then either untouched or the
  // line has a valid count, so that ParseDataLineGeneral replaces `ranked` in turn.
  std::optional<int64_t> ParseCanonicalLine(absl::string_view line, std::vector<Ranked>& ranked);

 private:
  absl::Status ParseInto(std::vector<Ranked>& ranked);
  absl::Status ParseAlternative(uint32_t rank, bool in_braces, std::vector<Ranked>& ranked);
  void SkipSpaces();
  bool AtEnd() const { return pos_ >= text_.size(); }
  absl::Status Unexpected(absl::string_view expected, size_t at) const;
  // Moves ParseCanonicalLine to the next line's generation (see stamps_).
  void NextGeneration();

  const int64_t n_;
  std::vector<bool> seen_;  // indexed by alternative; all false between lines
  absl::string_view text_;
  size_t column_ = 1;
  size_t pos_ = 0;
  // ParseCanonicalLine's duplicate check: alternative a is in the current line when
  // stamps_[a] == generation_. A new generation per line empties the set without touching
  // the stamps, which are reset only when the generation wraps around.
  std::vector<uint32_t> stamps_;
  uint32_t generation_ = 0;
};

// The data lines of a part of the body, one at a time, in file order:
//   DataLines lines(part, first_line);
//   while (lines.Next()) { ... lines.text() ... lines.number() ... }
class DataLines {
 public:
  DataLines(absl::string_view part, int64_t first_line) : part_(part), number_(first_line - 1) {}
  // Moves to the next line; false past the last. A last, possibly empty, line after the
  // last '\n' counts, as in absl::StrSplit(part, '\n').
  bool Next();
  absl::string_view text() const { return text_; }  // without its '\n'
  int64_t number() const { return number_; }        // 1-based line of the file

 private:
  absl::string_view part_;
  size_t start_ = 0;
  int64_t number_;
  absl::string_view text_;
};

// Reads data line `line` (line `line_number` of the file): nullopt for a blank line, else
// its count with its alternatives in `ranked`, or the line's error ("FILE:LINE: problem").
// Canonical lines take parser.ParseCanonicalLine, the others ParseDataLineGeneral; the
// result is ParseDataLineGeneral's either way.
absl::StatusOr<std::optional<int64_t>> ParseDataLine(absl::string_view line, int64_t line_number,
                                                     const Election& election, OrderParser& parser,
                                                     std::vector<Ranked>& ranked);

// ParseDataLine without its fast path: the definition of what every data line gives, the
// reference ParseCanonicalLine is tested against.
absl::StatusOr<std::optional<int64_t>> ParseDataLineGeneral(absl::string_view line,
                                                            int64_t line_number,
                                                            const Election& election,
                                                            OrderParser& parser,
                                                            std::vector<Ranked>& ranked);

// True when every id is non-empty and within limits.max_agent_id_bytes.
bool IdsValid(const std::vector<std::string>& ids, const ResultLimits& limits);

// ValidateResult(limits) on the standings of the vote of line `line_number` (ranked.size()
// >= 2 alternatives), run only where it can fail: too many standings, or an id not valid
// (`ids_valid`: IdsValid(election.agents, limits)); the ids are distinct and the ranks
// start at 1. The error is "FILE:LINE: problem" with ValidateResult's problem.
absl::Status CheckVote(const std::vector<Ranked>& ranked, int64_t line_number,
                       const Election& election, const ResultLimits& limits, bool ids_valid);

// The error for the vote of line `line_number` that takes the file past kMaxRecords.
absl::Status TooManyRecords(absl::string_view filename, int64_t line_number);

// The line-by-line reading both readers share: for every data line of `part` (whose first
// line is line `first_line` of the file), in order, parses it, adds the voters of a line
// that ranks fewer than two alternatives (no pair: not a result) to `skipped_votes`, checks
// the others (CheckVote, then kMaxRecords with `votes_before()` votes of the file before the
// line), and calls vote(line_number, count, ranked). Stops at the first error, which is
// the same as when the whole file is read line by line.
template <typename VotesBefore, typename OnVote>
absl::Status ForEachVoteLine(absl::string_view part, int64_t first_line, const Election& election,
                             int64_t& skipped_votes, VotesBefore votes_before, OnVote vote) {
  OrderParser parser(static_cast<int64_t>(election.agents.size()));
  std::vector<Ranked> ranked;
  DataLines lines(part, first_line);
  while (lines.Next()) {
    const int64_t line_number = lines.number();
    absl::StatusOr<std::optional<int64_t>> count =
        ParseDataLine(lines.text(), line_number, election, parser, ranked);
    if (!count.ok()) return count.status();
    if (!count->has_value()) continue;  // blank
    if (**count == 0 || ranked.size() < 2) {
      skipped_votes += **count;
      continue;
    }
    if (absl::Status s =
            CheckVote(ranked, line_number, election, *election.limits, election.ids_valid);
        !s.ok()) {
      return s;
    }
    if (votes_before() + **count > kMaxRecords) {
      return TooManyRecords(election.filename, line_number);
    }
    vote(line_number, **count, ranked);
  }
  return absl::OkStatus();
}

// Records to reserve for the data lines of `text`: for each line with a ',' after its ':'
// (a vote that may rank two alternatives or more), its count; exact for a valid file. At
// most four a line, so that a few huge counts (or corrupt ones) reserve nothing out of
// proportion to the file; beyond that the records grow as they come.
size_t RecordsToReserve(absl::string_view text);

}  // namespace ratings::io::preflib
