#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <future>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "ratings/io/parallel_lines.h"
#include "ratings/io/preflib_syntax.h"
#include "ratings/io/read_results.h"
#include "ratings/status_macros.h"

namespace ratings::io {
namespace {

using preflib::Election;
using preflib::kMaxRecords;
using preflib::Ranked;
using preflib::RecordsToReserve;

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

// Reads the data lines of `part`, whose first line is line `first_line` of the file, and
// appends their votes to `votes` (ResultRecord or Vote) in file order, and to
// `skipped_votes` those of lines that rank fewer than two alternatives; `records_before` is
// how many records the file has before `part` (for kMaxRecords). Stops at the first error,
// which has the same message as when the whole file is read line by line.
template <typename Item>
absl::Status ParseVoteLines(absl::string_view part, int64_t first_line, int64_t records_before,
                            const Election& election, std::vector<Item>& votes,
                            int64_t& skipped_votes) {
  return preflib::ForEachVoteLine(
      part, first_line, election, skipped_votes,
      [&] { return records_before + static_cast<int64_t>(votes.size()); },
      [&](int64_t line_number, int64_t count, const std::vector<Ranked>& ranked) {
        // The vote is built in place, its ids copied from the file's.
        Item& vote = votes.emplace_back();
        SetLine(vote, line_number);
        std::vector<Standing>& standings = StandingsOf(vote);
        standings.resize(ranked.size());
        for (size_t i = 0; i < ranked.size(); ++i) {
          standings[i].agent = election.agents[ranked[i].alternative - 1];
          standings[i].rank = ranked[i].rank;
        }
        // The other count - 1 voters: room first (growing geometrically), so that the vote
        // copied from stays where it is.
        if (count > 1) {
          const size_t needed = votes.size() + static_cast<size_t>(count - 1);
          if (needed > votes.capacity()) votes.reserve(std::max(needed, 2 * votes.capacity()));
          const Item& copied = votes.back();
          for (int64_t i = 1; i < count; ++i) votes.push_back(copied);
        }
      });
}

}  // namespace

absl::StatusOr<ReadOutput> ParsePreflib(std::string_view content_view,
                                        std::string_view filename_view,
                                        const ResultLimits& limits) {
  // Debian's Abseil keeps its own absl::string_view, distinct from std::string_view.
  const absl::string_view content(content_view.data(), content_view.size());
  const absl::string_view filename(filename_view.data(), filename_view.size());

  ASSIGN_OR_RETURN(const std::optional<preflib::Body> header,
                   preflib::ReadHeader(content, filename, limits));
  // No data lines: an empty election (the header was checked).
  if (!header.has_value()) return ReadOutput();
  const Election& election = header->election;

  // The data lines, from the first on: in two halves on two threads when long enough
  // (parallel_lines.h). Each line's records depend only on the line and the header, except
  // for the bound on the file's records, which the second half cannot know while the first
  // is read; see below.
  const absl::string_view body = header->text;
  const int64_t body_line = header->first_line;
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
